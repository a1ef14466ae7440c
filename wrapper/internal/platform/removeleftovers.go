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
// /etc/resolv.conf no longer pointing at it; its sysv service gone; its
// sockets and pid file in /run deleted. A
// daemon left running on a deleted binary, a unit that restarts it, or a
// resolv.conf naming a listener that no longer exists leaves the machine
// without DNS. It is the one clean-up for both init systems, after an
// uninstall and after a failed fresh install, and works only inside the
// roots the OS facts give. It ends by ctx's deadline, every kill grace
// included, and on systemd the daemon-reload and reset-failed that make
// systemd forget the unit get their time whatever came before.
func (l Linux) RemoveLeftovers(ctx context.Context, svc Service, grace time.Duration) {
	if svc.Ctrld == "" {
		return
	}
	p := l.Paths
	systemd := p.RunDir != "" && p.Etc != "" && p.Systemctl != "" && leftover.SystemdRuns(p.RunDir)
	early, cancel := ctx, context.CancelFunc(func() {})
	if systemd {
		early, cancel = leftover.BeforeFinish(ctx)
		leftover.StopSystemdUnit(early, l.SystemctlRun, svc.Name)
	}
	defer cancel()
	if p.Proc != "" {
		leftover.StopDaemons(p.Proc, svc.Ctrld, graceWithin(early, grace))
	}
	if systemd {
		leftover.RemoveSystemdUnit(ctx, l.SystemctlRun, p.Etc, svc.Name)
	}
	if p.Etc != "" {
		leftover.RestoreResolvConf(filepath.Join(p.Etc, leftover.ResolvConf), filepath.Join(p.Etc, leftover.ResolvBackup))
		leftover.RemoveSysvService(p.Etc, svc.Name)
	}
	if p.RunDir != "" {
		leftover.RemoveRunFiles(p.RunDir, svc.Name)
	}
}

// graceWithin shortens grace to what is left before ctx's deadline.
func graceWithin(ctx context.Context, grace time.Duration) time.Duration {
	if deadline, ok := ctx.Deadline(); ok {
		return max(min(grace, time.Until(deadline)), 0)
	}
	return grace
}
