package provision

import (
	"context"
	"path/filepath"

	"github.com/ctrld-install/ctrld-install/wrapper/internal/leftover"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/platform"
)

// ctrldAnswers reports whether ctrld's own commands can reach its daemon
// (platform.Linux.Ready): when they cannot, ctrld uninstall would only
// wait, and cleanUp does its work instead.
func ctrldAnswers(cfg Config, osys platform.OS) bool {
	linux, ok := osys.(platform.Linux)
	if !ok {
		return true
	}
	name := ServiceName(cfg.Ctrld)
	return linux.Ready(platform.Service{Name: name, Ctrld: cfg.Ctrld})
}

// cleanUp makes sure, whatever ctrld managed, that nothing of its service
// still acts or is known to the init system: on systemd the unit stopped,
// disabled, deleted and not even failed; its daemon stopped;
// /etc/resolv.conf no longer pointing at it; its sysv service gone. A
// daemon left running on a deleted binary, a unit that restarts it, or a
// resolv.conf naming a listener that no longer exists leaves the machine
// without DNS. It is the one clean-up for both init systems, after an
// uninstall and after a failed fresh install, and works only inside the
// roots the OS facts give.
func cleanUp(ctx context.Context, cfg Config, osys platform.OS) {
	linux, ok := osys.(platform.Linux)
	if cfg.Ctrld == "" || !ok {
		return
	}
	name := ServiceName(cfg.Ctrld)
	systemd := linux.RunDir != "" && linux.Etc != "" && linux.Systemctl != "" && leftover.SystemdRuns(linux.RunDir)
	if systemd {
		leftover.StopSystemdUnit(ctx, linux.SystemctlRun, name)
	}
	if linux.Proc != "" {
		leftover.StopDaemons(linux.Proc, cfg.Ctrld, cfg.Grace)
	}
	if systemd {
		leftover.RemoveSystemdUnit(ctx, linux.SystemctlRun, linux.Etc, name)
	}
	if linux.Etc != "" {
		leftover.RestoreResolvConf(filepath.Join(linux.Etc, leftover.ResolvConf), filepath.Join(linux.Etc, leftover.ResolvBackup))
		leftover.RemoveSysvService(linux.Etc, name)
	}
}
