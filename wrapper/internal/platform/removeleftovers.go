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
	p := l.Paths
	systemd := p.RunDir != "" && p.Etc != "" && p.Systemctl != "" && leftover.SystemdRuns(p.RunDir)
	if systemd {
		leftover.StopSystemdUnit(ctx, l.SystemctlRun, svc.Name)
	}
	if p.Proc != "" {
		leftover.StopDaemons(p.Proc, svc.Ctrld, grace)
	}
	if systemd {
		leftover.RemoveSystemdUnit(ctx, l.SystemctlRun, p.Etc, svc.Name)
	}
	if p.Etc != "" {
		leftover.RestoreResolvConf(filepath.Join(p.Etc, leftover.ResolvConf), filepath.Join(p.Etc, leftover.ResolvBackup))
		leftover.RemoveSysvService(p.Etc, svc.Name)
	}
}
