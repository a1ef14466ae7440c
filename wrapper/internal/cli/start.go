package cli

import (
	"context"
	"flag"
	"io"
	"os"
	"sync"

	"github.com/ctrld-install/ctrld-install/internal/codes"

	"github.com/ctrld-install/ctrld-install/wrapper/internal/lock"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/platform"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/proc"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/provision"
)

func newStartFlagSet(in *provision.Input) *flag.FlagSet {
	fs := newSourceFlagSet("start", in)
	in.Timeout, in.GateTimeout = provision.DefaultTimeout, provision.DefaultGateTimeout
	fs.Var(durationFlag{d: &in.Timeout}, "timeout", "bound on ctrld start")
	fs.Var(durationFlag{d: &in.GateTimeout}, "gate-timeout", "bound on the success gate")
	return fs
}

// newSourceFlagSet is the command line of the commands that look where
// start looks for ctrld, its service and the settings (start, configured,
// preflight).
func newSourceFlagSet(name string, in *provision.Input) *flag.FlagSet {
	fs := locationFlags(name, in)
	fs.StringVar(&in.Prefs, "prefs", "", "managed-settings plist `FILE`, read on any OS (default on macOS: "+platform.ManagedPrefsPath+")")
	fs.StringVar(&in.ServiceFile, "service-file", "", "the service definition `FILE` whose presence means upgrade (launchd plist, systemd unit or init script)")
	fs.StringVar(&in.ServiceFile, "plist", "", "the launchd plist `FILE`: the macOS spelling of --service-file, also read by the success gate")
	fs.StringVar(&in.SettingsFile, "settings", "", "settings `FILE` of Key=Value lines (default on Linux: "+platform.SettingsPath+")")
	fs.StringVar(&in.TokenFile, "token-file", "", "`FILE` holding the provisioning token (beats --token and "+provision.TokenEnv+")")
	settingFlags(fs, in)
	fs.Var(durationFlag{d: &in.PrefsWait, zeroMeans: true}, "prefs-wait", "bound on the wait for the managed-preferences profile; 0 waits not at all (default 2m on macOS, 0 elsewhere)")
	return fs
}

// parsedPrefsWait records whether --prefs-wait was given, so that the
// OS default applies when it was not.
func parsedPrefsWait(fs *flag.FlagSet, in *provision.Input) {
	fs.Visit(func(fl *flag.Flag) {
		if fl.Name == "prefs-wait" {
			in.PrefsWaitSet = true
		}
	})
}

// parseStart parses the flags of start, or of configured, which looks
// where start would look but runs nothing.
func parseStart(name string, args []string, stdout, stderr io.Writer) (in provision.Input, exit int, done bool) {
	fs := newStartFlagSet(&in)
	if name != "start" {
		fs = newSourceFlagSet(name, &in)
	}
	if exit, done := parseOrExplain(fs, args, stdout, stderr); done {
		return in, exit, true
	}
	parsedPrefsWait(fs, &in)
	return in, 0, false
}

func runStart(sys System, args []string, stdout, stderr io.Writer) int {
	line := &oneLine{w: stdout}
	ctx, stop := interruptContext(func() { exitInterrupted(line) })
	defer stop()
	return withProvisioner("start", sys, args, stdout, stderr, func(p *provision.Provisioner) int {
		outcome := p.Run(ctx)
		line.print(outcome)
		return outcome.Exit()
	})
}

// runConfigured answers, without output, whether start has work to do.
// Interrupted, it answers WRAPPER_INTERRUPTED's exit code.
func runConfigured(sys System, args []string, stdout, stderr io.Writer) int {
	ctx, stop := interruptContext(exitQuietly)
	defer stop()
	return withProvisioner("configured", sys, args, stdout, stderr, func(p *provision.Provisioner) int {
		work, err := p.HasWork(ctx)
		switch {
		case err != nil:
			return interruptedExit
		case work:
			return exitOK
		}
		return exitNone
	})
}

// withProvisioner parses start's flags for the command name and hands act
// a provisioner that logs to the OS log.
func withProvisioner(name string, sys System, args []string, stdout, stderr io.Writer, act func(*provision.Provisioner) int) int {
	in, exit, done := parseStart(name, args, stdout, stderr)
	if done {
		return exit
	}
	log := sys.OpenLog()
	defer log.Close()
	return act(&provision.Provisioner{Config: provision.Resolve(in, sys.OS, sys.Env, log), OS: sys.OS, Log: log})
}

// runUninstall is for package removal: ctrld uninstall, then the
// wrapper's own records go. It prints nothing and exits with ctrld's code.
func runUninstall(sys System, args []string, stdout, stderr io.Writer) int {
	cfg, exit, done := locate("uninstall", sys, args, stdout, stderr)
	if done {
		return exit
	}
	return provision.Uninstall(context.Background(), cfg, sys.OS)
}

// interruptContext is cancelled with provision.ErrInterrupted on the
// first stop signal (SIGINT, SIGTERM, SIGHUP, SIGQUIT; Ctrl+C or
// Ctrl+Break on Windows); again runs on the second.
func interruptContext(again func()) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	stopSignals := onInterrupt(func() { cancel(provision.ErrInterrupted) }, again)
	return ctx, func() { stopSignals(); cancel(nil) }
}

// exitInterrupted is start's answer to a second stop signal: the
// installer wants the wrapper gone now, so it prints the line, hard-kills
// ctrld's tree without the grace, clears its tree marker and exits.
func exitInterrupted(line *oneLine) {
	o := codes.Failure(codes.WrapperInterrupted)
	if line.print(o) {
		proc.KillAll()
		lock.ClearOwnTrees()
		os.Exit(o.Exit())
	}
}

// exitQuietly is the answer to a second stop signal of a command that
// prints no line and runs no ctrld.
func exitQuietly() { os.Exit(interruptedExit) }

// oneLine prints the first outcome given and no other, so a second
// signal racing the normal end never makes two lines.
type oneLine struct {
	w    io.Writer
	once sync.Once
}

// print reports whether it printed o.
func (l *oneLine) print(o codes.Outcome) (printed bool) { return l.printText(o.Line()) }

// printText reports whether it printed text, as one line.
func (l *oneLine) printText(text string) (printed bool) {
	l.once.Do(func() {
		// A write error (a closed pipe) must not change the exit code.
		io.WriteString(l.w, text+"\n")
		printed = true
	})
	return printed
}
