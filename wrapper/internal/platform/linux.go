package platform

import (
	"context"
	"path/filepath"

	"github.com/ctrld-install/ctrld-install/contract"
	"github.com/ctrld-install/ctrld-install/wrapper/settings"
)

// Linux: systemd or an init script, settings from a root-only file.
type Linux struct {
	Run Runner
	// Proc and Etc are the roots the cleanup after an uninstall works in:
	// /proc for ctrld's processes, /etc for resolv.conf and the sysv
	// service. Empty means no cleanup.
	Proc, Etc string
	// MsiexecPath is empty: Linux has no msiexec. Tests of install-msi
	// set a stand-in.
	MsiexecPath string
}

// The real roots, which Current sets.
const (
	ProcRoot = "/proc"
	EtcRoot  = "/etc"
)

// SettingsPath is the Linux settings file.
const SettingsPath = contract.LinuxSettings

func (Linux) Defaults(string) Defaults {
	return Defaults{Home: contract.Home, Settings: SettingsPath}
}

func (Linux) ServiceFiles(name string) []string {
	return []string{
		filepath.Join("/etc/systemd/system", name+".service"),
		filepath.Join("/lib/systemd/system", name+".service"),
		filepath.Join("/usr/lib/systemd/system", name+".service"),
		filepath.Join("/etc/init.d", name),
	}
}

func (Linux) Installed(svc Service) bool { return anyExists(svc.Files) }

func (Linux) Gate(context.Context, Service) bool { return true }

// Reload asks ctrld to restart its own service: ctrld knows whether it
// runs under systemd, sysvinit or OpenRC.
func (l Linux) Reload(ctx context.Context, svc Service) error {
	return l.Run(ctx, svc.Env, svc.Ctrld, "restart")
}

func (Linux) Policy() settings.Settings { return settings.Settings{} }

func (Linux) LastResultDir(home string) string { return home }

func (l Linux) Msiexec() string { return l.MsiexecPath }
