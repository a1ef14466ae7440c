package platform

import (
	"context"
	"path/filepath"
	"time"

	"github.com/ctrld-install/ctrld-install/contract"
	"github.com/ctrld-install/ctrld-install/wrapper/settings"
)

// Darwin is macOS: launchd services, managed preferences from a profile.
type Darwin struct {
	Run Runner
	// LegacyDir is where earlier releases put the binaries; a launchd job
	// still pointing there is moved off it. Empty means no move.
	LegacyDir string
}

// NewDarwin is macOS as it is, running launchctl through run.
func NewDarwin(run Runner) Darwin {
	return Darwin{Run: run, LegacyDir: contract.MacLegacyBinDir}
}

// launchctl is run by its full path, never looked up on PATH.
const launchctl = "/bin/launchctl"

// ManagedPrefsPath is where a configuration profile for the domain
// com.controld.ctrld lands.
const ManagedPrefsPath = contract.ManagedPrefs

func (Darwin) Defaults(string) Defaults {
	return Defaults{Home: contract.Home, Prefs: ManagedPrefsPath, PrefsWait: 2 * time.Minute}
}

func (Darwin) ServiceFiles(name string) []string {
	return []string{filepath.Join(contract.LaunchDaemonsDir, name+".plist")}
}

func (Darwin) Installed(svc Service) bool { return anyExists(svc.Files) }

// Gate also needs the launchd plist: ctrld can report success without
// having installed the daemon.
func (Darwin) Gate(_ context.Context, svc Service) bool { return anyExists(svc.Files) }

// Reload unloads and loads the existing plist so launchd starts the new
// binary. The unload fails harmlessly when the job was not loaded.
func (d Darwin) Reload(ctx context.Context, svc Service) error {
	plist := svc.Files[0]
	_ = d.Run(ctx, svc.Env, launchctl, "unload", plist)
	return d.Run(ctx, svc.Env, launchctl, "load", "-w", plist)
}

func (Darwin) Policy() settings.Settings { return settings.Settings{} }

// RecordDir is the ctrld home dir, in a place only root can write.
func (Darwin) RecordDir(home string) string { return home }

func (Darwin) Msiexec() string { return "" }

// Ready: launchd owns the daemon, so ctrld's commands reach it.
func (Darwin) Ready(Service) bool { return true }

// RemoveLeftovers has nothing to do: launchd owns the daemon.
func (Darwin) RemoveLeftovers(context.Context, Service, time.Duration) {}
