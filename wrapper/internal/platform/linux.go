package platform

import (
	"context"
	"errors"
	"path/filepath"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/internal/settings"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/leftover"
)

// Linux: systemd or an init script, settings from a root-only file.
type Linux struct {
	Run   Runner
	Paths LinuxPaths
}

// LinuxPaths are where the machine's facts are found. An empty one is a
// fact this OS value does not have: nothing is looked at or run there.
type LinuxPaths struct {
	// Proc and Etc are the roots the cleanup after an uninstall works in:
	// /proc for ctrld's processes, /etc for resolv.conf and the sysv
	// service.
	Proc, Etc string
	// RunDir is /run: ctrld's control socket, and /run/systemd/system
	// when systemd is the init system.
	RunDir string
	// Systemctl is systemctl by its full path, run through Run.
	Systemctl string
}

// The real paths, which Current sets.
const (
	ProcRoot      = "/proc"
	EtcRoot       = "/etc"
	RunRoot       = names.RunDir
	SystemctlPath = "/bin/systemctl"
)

// ControlWait is how long ctrld's control socket gets to answer before
// its daemon counts as not ready.
const ControlWait = time.Second

// ErrNotReady means ctrld's daemon runs but does not answer on its
// control socket: it booted offline and waits for the network. ctrld
// restart would wait minutes for it, so the running service is left as
// it is.
var ErrNotReady = errors.New("ctrld's daemon runs but does not answer on its control socket")

// SettingsPath is the Linux settings file.
const SettingsPath = names.LinuxSettings

func (Linux) Defaults(string) Defaults {
	return Defaults{Home: names.Home, Settings: SettingsPath}
}

func (Linux) ServiceFiles(name string) []string {
	return []string{
		filepath.Join("/etc/systemd/system", name+".service"),
		filepath.Join("/lib/systemd/system", name+".service"),
		filepath.Join("/usr/lib/systemd/system", name+".service"),
		filepath.Join("/etc/init.d", name),
	}
}

// Installed: a unit file or init script exists and runs this binary.
func (Linux) Installed(svc Service) bool {
	return anyExists(svc.Files) && ownService(svc.Files, svc.Ctrld)
}

func (Linux) Gate(context.Context, Service) bool { return true }

// Reload asks ctrld to restart its own service: ctrld knows whether it
// runs under systemd, sysvinit or OpenRC. A daemon that runs without
// answering is not restarted (ErrNotReady): it keeps the machine as it
// is and takes the new binary at its next restart.
//
// A restart that fails or is cut short may have stopped the old daemon
// (and a cut-short one takes the daemon it started down with its process
// group), or left it running on the old, replaced binary (a stop that
// hangs, the unit left deactivating): the old daemon is then stopped
// through the init system and the service started again on the new
// binary (replaceDaemon), so a service runs either way. A restart that
// exits 0 while a daemon still runs the replaced binary (ctrld's restart
// can report success without restarting) is replaced the same way, and
// is ErrOldBinaryRuns when that fails. When the daemon
// that runs afterwards runs the new binary, the reload did its work and
// the success gate decides.
func (l Linux) Reload(ctx context.Context, svc Service) error {
	if !l.Ready(svc) {
		return ErrNotReady
	}
	err := l.Run(ctx, svc.Env, svc.Ctrld, "restart")
	if err == nil && !l.oldBinaryRuns(svc) {
		return nil
	}
	if l.replaceDaemon(ctx, svc) {
		return nil
	}
	if err == nil {
		return ErrOldBinaryRuns
	}
	return err
}

// ErrOldBinaryRuns means ctrld's restart reported success, yet its daemon
// still runs the binary the upgrade replaced, and replacing it failed.
var ErrOldBinaryRuns = errors.New("ctrld's daemon still runs the replaced binary after its restart")

// oldBinaryRuns reports whether a daemon of svc runs a copy of its binary
// that the upgrade replaced: ctrld's restart can exit 0 without having
// restarted anything.
func (l Linux) oldBinaryRuns(svc Service) bool {
	return l.Paths.Proc != "" && leftover.RunningOld(l.Paths.Proc, svc.Ctrld)
}

// restartBound bounds starting the service again after a failed reload.
// It is its own, not what is left of the reload's: a sysv script starts
// the daemon in its own process group, which a cut-short run takes down.
const restartBound = 2 * time.Second

// keepRunning starts svc through the init system when no process of it
// runs: systemd queues the start, a sysv script starts the daemon. It
// reports whether it asked for the start: not while a process of svc
// still runs, one being killed included.
func (l Linux) keepRunning(svc Service) bool {
	if l.Paths.Proc == "" || l.Paths.Etc == "" || leftover.Running(l.Paths.Proc, svc.Ctrld) {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), restartBound)
	defer cancel()
	if l.Paths.RunDir != "" && l.Paths.Systemctl != "" && leftover.SystemdRuns(l.Paths.RunDir) {
		l.SystemctlRun(ctx, "--no-block", "start", svc.Name+".service")
		return true
	}
	if script := filepath.Join(l.Paths.Etc, "init.d", svc.Name); anyExists([]string{script}) {
		l.Run(ctx, svc.Env, script, "start")
	}
	return true
}

// Ready reports whether ctrld's commands can reach its daemon: it answers
// on its control socket, or no daemon of svc runs at all (then there is
// nothing to wait for). Without RunDir it cannot tell and says yes.
func (l Linux) Ready(svc Service) bool {
	if l.Paths.RunDir == "" || leftover.ControlAnswers(l.Paths.RunDir, svc.Name, ControlWait) {
		return true
	}
	return l.Paths.Proc == "" || !leftover.Running(l.Paths.Proc, svc.Ctrld)
}

// SystemctlRun runs systemctl through Run, without ctrld's environment.
func (l Linux) SystemctlRun(ctx context.Context, args ...string) error {
	return l.Run(ctx, nil, l.Paths.Systemctl, args...)
}

// MoveOffLegacyDir has nothing to move: only macOS releases ran ctrld
// from a folder a user could write.
func (Linux) MoveOffLegacyDir(context.Context, Service) error { return nil }

func (Linux) Policy() settings.Settings { return settings.Settings{} }

// RecordDir is the ctrld home dir, in a place only root can write.
func (Linux) RecordDir(home string) string { return home }

func (Linux) Msiexec() string { return "" }
