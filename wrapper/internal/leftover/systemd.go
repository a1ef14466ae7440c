package leftover

import (
	"context"
	"os"
	"path/filepath"
	"time"
)

// Systemctl runs systemctl with args, bounded by ctx.
type Systemctl func(ctx context.Context, args ...string) error

// systemctlBound bounds each systemctl call, its kill grace included:
// the whole removal has 30 s.
const systemctlBound = 3 * time.Second

// finishReserve is kept for the last two steps of a removal,
// daemon-reload and reset-failed: they run however long the steps before
// them took.
const finishReserve = 2 * systemctlBound

// BeforeFinish bounds the steps before RemoveSystemdUnit's last two: the
// context it returns ends finishReserve before ctx's deadline.
func BeforeFinish(ctx context.Context) (context.Context, context.CancelFunc) {
	deadline, ok := ctx.Deadline()
	if !ok {
		return context.WithCancel(ctx)
	}
	return context.WithDeadline(ctx, deadline.Add(-finishReserve))
}

// The unit ctrld writes on systemd, under /etc.
const (
	systemdUnitDir = "systemd/system"
	// wantsDir holds the link `systemctl enable` makes (WantedBy=).
	wantsDir = "multi-user.target.wants"
)

// SystemdRuns reports whether systemd is the init system: it creates
// /run/systemd/system at boot. runDir is /run.
func SystemdRuns(runDir string) bool {
	st, err := os.Stat(filepath.Join(runDir, "systemd", "system"))
	return err == nil && st.IsDir()
}

// StopSystemdUnit queues the stop of service name's unit and returns at
// once: a blocking stop waits for a daemon that may never answer. A
// queued stop also keeps Restart=always from starting the daemon again
// while StopDaemons kills it.
func StopSystemdUnit(ctx context.Context, systemctl Systemctl, name string) {
	call(ctx, systemctl, "--no-block", "stop", unit(name))
}

// RemoveSystemdUnit makes systemd forget service name in every state:
// disabled, its unit file and enable link under etc deleted, systemd's
// view reloaded, and a failed state cleared (ctrld's own uninstall leaves
// the unit loaded and failed). It works on whatever is left, so it also
// cleans up after a ctrld uninstall that finished. The reload and the
// reset get the time BeforeFinish keeps, even when disable hangs.
func RemoveSystemdUnit(ctx context.Context, systemctl Systemctl, etc, name string) {
	early, cancel := BeforeFinish(ctx)
	defer cancel()
	call(early, systemctl, "disable", unit(name))
	for _, p := range unitFiles(etc, name) {
		if st, err := os.Lstat(p); err == nil && (st.Mode().IsRegular() || st.Mode()&os.ModeSymlink != 0) {
			os.Remove(p)
		}
	}
	call(ctx, systemctl, "daemon-reload")
	call(ctx, systemctl, "reset-failed", unit(name))
}

// unitFiles are the unit ctrld writes for service name and the link
// enabling it.
func unitFiles(etc, name string) []string {
	dir := filepath.Join(etc, systemdUnitDir)
	return []string{filepath.Join(dir, unit(name)), filepath.Join(dir, wantsDir, unit(name))}
}

func unit(name string) string { return name + ".service" }

// call runs one systemctl command within its own bound; its failure
// changes nothing (the next step still runs).
func call(ctx context.Context, systemctl Systemctl, args ...string) {
	if ctx.Err() != nil {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, systemctlBound)
	defer cancel()
	systemctl(ctx, args...)
}
