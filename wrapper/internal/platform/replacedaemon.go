package platform

import (
	"context"
	"path/filepath"
	"time"

	"github.com/ctrld-install/ctrld-install/wrapper/internal/leftover"
)

// The bounds on replacing a daemon after a restart that did not finish;
// together they stay within what the reload budget leaves after the
// restart's own bound.
const (
	// replaceBound bounds the whole replacement, the wait for the new
	// binary's daemon included.
	replaceBound = 4 * time.Second
	// initStopBound bounds the init system's stop: systemd only queues
	// it, a sysv script may wait for the daemon.
	initStopBound = 1500 * time.Millisecond
	// stopGrace is how long the old daemon gets after SIGTERM before it
	// is killed: one caught in its stop never ends by itself.
	stopGrace = time.Second
	// newDaemonPoll is how often the wait looks for the new daemon.
	newDaemonPoll = 100 * time.Millisecond
)

// replaceDaemon makes the service run the new binary after ctrld's own
// restart did not finish: a daemon still running the old binary is
// stopped through the init system and killed after stopGrace, the
// service is started again, and it reports whether a daemon of the new
// binary runs within replaceBound. Without /proc and /etc it can tell
// nothing and does nothing.
func (l Linux) replaceDaemon(svc Service) bool {
	if l.Paths.Proc == "" || l.Paths.Etc == "" {
		return false
	}
	if leftover.RunningFile(l.Paths.Proc, svc.Ctrld) {
		return true
	}
	deadline := time.Now().Add(replaceBound)
	if leftover.Running(l.Paths.Proc, svc.Ctrld) {
		l.stopService(svc)
		leftover.StopDaemons(l.Paths.Proc, svc.Ctrld, stopGrace)
	}
	l.keepRunning(svc)
	for !leftover.RunningFile(l.Paths.Proc, svc.Ctrld) {
		if time.Now().Add(newDaemonPoll).After(deadline) {
			return false
		}
		time.Sleep(newDaemonPoll)
	}
	return true
}

// stopService asks the init system to stop svc: systemd queues the stop
// (which also keeps Restart= from starting the old daemon again while it
// is killed), a sysv script stops it itself.
func (l Linux) stopService(svc Service) {
	ctx, cancel := context.WithTimeout(context.Background(), initStopBound)
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
