package platform

import (
	"context"
	"path/filepath"
	"time"

	"github.com/ctrld-install/ctrld-install/wrapper/internal/leftover"
)

// The bounds on replacing a daemon after a restart that did not finish.
// The replacement takes what the reload's context leaves after the
// restart (ctrld restart dies at the SIGTERM its bound sends, a few
// seconds before the context ends), and never less than minReplace, so
// that a service runs either way.
const (
	// replaceBound bounds the replacement when the context has no deadline.
	replaceBound = 4 * time.Second
	// minReplace is the least time the replacement gets.
	minReplace = time.Second
	// initStopBound bounds the init system's stop: systemd only queues
	// it, a sysv script may wait for the daemon.
	initStopBound = 500 * time.Millisecond
	// stopGrace is how long the old daemon gets after SIGTERM before it
	// is killed: one caught in its stop never ends by itself.
	stopGrace = 700 * time.Millisecond
	// retryStart is how often the start is asked for again while no
	// daemon runs.
	retryStart = 500 * time.Millisecond
	// newDaemonPoll is how often the wait looks for the new daemon.
	newDaemonPoll = 100 * time.Millisecond
)

// replaceDaemon makes the service run the new binary after ctrld's own
// restart did not finish: any daemon of the binary is stopped through the
// init system and killed after stopGrace, the service is started again,
// and it reports whether a daemon of the new binary runs by the end of
// ctx's deadline (replaceContext). A daemon of the new binary found
// running is replaced too: the cut-short restart may have started it in
// its own process group, which is being stopped with it. Without /proc
// and /etc it can tell nothing and does nothing.
func (l Linux) replaceDaemon(ctx context.Context, svc Service) bool {
	if l.Paths.Proc == "" || l.Paths.Etc == "" {
		return false
	}
	ctx, cancel := replaceContext(ctx)
	defer cancel()
	if leftover.Running(l.Paths.Proc, svc.Ctrld) {
		l.stopService(ctx, svc)
		leftover.StopDaemons(l.Paths.Proc, svc.Ctrld, stopGrace)
	}
	var asked time.Time
	for !leftover.RunningFile(l.Paths.Proc, svc.Ctrld) {
		// The daemons just killed may not be gone yet, a sysv script
		// does not start one while its pid file names a live process,
		// and a daemon started while the old one lets go of its port
		// may end at once: while none runs, the start is asked for
		// again every retryStart.
		if time.Since(asked) >= retryStart && l.keepRunning(svc) {
			asked = time.Now()
		}
		select {
		case <-ctx.Done():
			return leftover.RunningFile(l.Paths.Proc, svc.Ctrld)
		case <-time.After(newDaemonPoll):
		}
	}
	return true
}

// replaceContext ends at ctx's deadline, at least minReplace from now,
// and is not cancelled with ctx: a run stopped during the reload still
// leaves a service running.
func replaceContext(ctx context.Context) (context.Context, context.CancelFunc) {
	deadline, ok := ctx.Deadline()
	if !ok {
		deadline = time.Now().Add(replaceBound)
	}
	if least := time.Now().Add(minReplace); deadline.Before(least) {
		deadline = least
	}
	return context.WithDeadline(context.WithoutCancel(ctx), deadline)
}

// stopService asks the init system to stop svc: systemd queues the stop
// (which also keeps Restart= from starting the old daemon again while it
// is killed), a sysv script stops it itself.
func (l Linux) stopService(ctx context.Context, svc Service) {
	ctx, cancel := context.WithTimeout(ctx, initStopBound)
	defer cancel()
	if l.onSystemd() {
		l.SystemctlRun(ctx, "--no-block", "stop", svc.Name+".service")
		return
	}
	if script := filepath.Join(l.Paths.Etc, "init.d", svc.Name); anyExists([]string{script}) {
		l.Run(ctx, svc.Env, script, "stop")
	}
}

// onSystemd reports whether systemd is the init system and systemctl is
// known.
func (l Linux) onSystemd() bool {
	return l.Paths.RunDir != "" && l.Paths.Systemctl != "" && leftover.SystemdRuns(l.Paths.RunDir)
}
