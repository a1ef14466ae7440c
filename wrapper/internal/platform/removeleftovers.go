package platform

import (
	"context"
	"path/filepath"
	"time"

	"github.com/ctrld-install/ctrld-install/wrapper/internal/leftover"
)

// RemoveLeftovers makes sure, whatever ctrld managed, that nothing of its
// service still acts or is known to the init system: on systemd the unit
// stopped, disabled, deleted and not even failed; its daemon stopped;
// /etc/resolv.conf no longer pointing at it; its sysv service gone. A
// daemon left running on a deleted binary, a unit that restarts it, or a
// resolv.conf naming a listener that no longer exists leaves the machine
// without DNS. It is the one clean-up for both init systems, after an
// uninstall and after a failed fresh install, and works only inside the
// roots the OS facts give.
func (l Linux) RemoveLeftovers(ctx context.Context, svc Service, grace time.Duration) {
	if svc.Ctrld == "" {
		return
	}
	systemd := l.RunDir != "" && l.Etc != "" && l.Systemctl != "" && leftover.SystemdRuns(l.RunDir)
	if systemd {
		leftover.StopSystemdUnit(ctx, l.SystemctlRun, svc.Name)
	}
	if l.Proc != "" {
		leftover.StopDaemons(l.Proc, svc.Ctrld, grace)
	}
	if systemd {
		leftover.RemoveSystemdUnit(ctx, l.SystemctlRun, l.Etc, svc.Name)
	}
	if l.Etc != "" {
		leftover.RestoreResolvConf(filepath.Join(l.Etc, leftover.ResolvConf), filepath.Join(l.Etc, leftover.ResolvBackup))
		leftover.RemoveSysvService(l.Etc, svc.Name)
	}
}
