package platform

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/ctrld-install/ctrld-install/wrapper/internal/leftover"
)

// Where ctrld defines its service under /etc, and the line of each
// definition that holds the daemon's command.
const (
	unitDir      = "systemd/system"
	unitWants    = "multi-user.target.wants"
	initDir      = "init.d"
	unitCommand  = "ExecStart="
	sysvCommand  = `cmd="`
	unitSpaceEsc = `\x20`
)

// OtherLine finds line's service under Paths.Etc, as ctrld writes it: a
// systemd unit or an init script. The binary and the resolver uid are
// read from the command the definition runs.
func (l Linux) OtherLine(svc Service, line string) (Other, bool) {
	if l.Paths.Etc == "" || line == svc.Name {
		return Other{}, false
	}
	files := l.definitions(line)
	if len(files) == 0 {
		return Other{}, false
	}
	o := Other{Service: Service{Name: line, Files: files, Env: svc.Env}, Binary: besideOurs(svc, line)}
	for _, def := range []struct{ path, prefix string }{
		{filepath.Join(l.Paths.Etc, unitDir, line+".service"), unitCommand},
		{filepath.Join(l.Paths.Etc, initDir, line), sysvCommand},
	} {
		if bin, uid, ok := commandIn(def.path, def.prefix); ok {
			o.Ctrld = orElse(o.Ctrld, bin)
			o.UID = orElse(o.UID, uid)
		}
	}
	o.Ctrld = orElse(o.Ctrld, o.Binary)
	return o, true
}

// definitions are the files and links that define line's service and
// exist: the unit and its enable link, the init script and its rc links.
func (l Linux) definitions(line string) []string {
	etc := l.Paths.Etc
	paths := []string{
		filepath.Join(etc, unitDir, line+".service"),
		filepath.Join(etc, unitDir, unitWants, line+".service"),
		filepath.Join(etc, initDir, line),
	}
	links, _ := filepath.Glob(filepath.Join(etc, "rc[0-6S].d", "[SK][0-9][0-9]"+line))
	var found []string
	for _, p := range append(paths, links...) {
		if anyLeft([]string{p}) {
			found = append(found, p)
		}
	}
	return found
}

// commandIn reads the command of a definition file: the line starting
// with prefix, its program and its --cd uid.
func commandIn(path, prefix string) (bin, uid string, ok bool) {
	text, ok := readDefinition(path)
	if !ok {
		return "", "", false
	}
	for _, line := range strings.Split(text, "\n") {
		cmd, found := strings.CutPrefix(strings.TrimSpace(line), prefix)
		if !found {
			continue
		}
		bin = strings.ReplaceAll(firstWord(cmd), unitSpaceEsc, " ")
		return bin, uidIn(cmd), true
	}
	return "", "", false
}

func orElse(v, def string) string {
	if v != "" {
		return v
	}
	return def
}

// RemoveOther stops the other line's daemon and removes its service with
// the clean-up an uninstall runs, within ctx, after saving its
// definition and resolv.conf with ctrld's backup of it: the clean-up
// puts the backup back, and a daemon started again by its init script
// does not point resolv.conf at itself. Anything of it left afterwards
// is ErrOtherLeft.
func (l Linux) RemoveOther(ctx context.Context, o *Other) error {
	o.saved = save(append(slices.Clone(o.Files),
		filepath.Join(l.Paths.Etc, leftover.ResolvConf), filepath.Join(l.Paths.Etc, leftover.ResolvBackup)))
	if o.Ctrld == "" {
		// Nothing runs a binary of no name; the definitions still go.
		o.Ctrld = filepath.Join(l.Paths.Etc, initDir, o.Name)
	}
	l.RemoveLeftovers(ctx, o.Service, stopGrace)
	// A unit left on a machine without systemd, or a script beside a
	// unit, is a definition all the same.
	removeDefinitions(o.Files)
	if anyLeft(o.Files) {
		return fmt.Errorf("%w: %s", ErrOtherLeft, o.Name)
	}
	if l.Paths.Proc != "" && !l.daemonGone(ctx, o.Ctrld) {
		return fmt.Errorf("%w: its daemon still runs", ErrOtherLeft)
	}
	return nil
}

// killWait bounds the wait for a killed daemon to be gone: a kill is
// delivered, not awaited.
const killWait = 2 * time.Second

// daemonGone waits, up to killWait within ctx, until no process runs
// bin.
func (l Linux) daemonGone(ctx context.Context, bin string) bool {
	deadline := time.Now().Add(killWait)
	for leftover.Running(l.Paths.Proc, bin) {
		if ctx.Err() != nil || time.Now().After(deadline) {
			return false
		}
		time.Sleep(newDaemonPoll)
	}
	return true
}

// RestoreOther puts the saved definition and resolv.conf back and starts
// the service through the init system.
func (l Linux) RestoreOther(ctx context.Context, o Other) error {
	err := putBack(o.saved)
	if l.onSystemd() {
		l.SystemctlRun(ctx, "daemon-reload")
		l.SystemctlRun(ctx, "--no-block", "start", o.Name+".service")
		return err
	}
	if script := filepath.Join(l.Paths.Etc, initDir, o.Name); anyExists([]string{script}) {
		l.Run(ctx, o.Env, script, "start")
	}
	return err
}

// removeDefinitions removes the regular files and links among paths.
func removeDefinitions(paths []string) {
	for _, p := range paths {
		if info, err := os.Lstat(p); err == nil && (info.Mode().IsRegular() || info.Mode()&fs.ModeSymlink != 0) {
			os.Remove(p)
		}
	}
}
