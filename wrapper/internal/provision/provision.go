// Package provision is the wrapper's decision logic: gather settings, run
// ctrld start (or reload the service on upgrade), and turn what happened
// into exactly one outcome.
package provision

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/codes"
	"github.com/ctrld-install/ctrld-install/internal/settings"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/evidence"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/lock"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/managed"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/platform"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/record"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/safefile"
)

// Causes for ending a run early, given to context.WithCancelCause.
var (
	ErrInterrupted = errors.New("interrupted")
	errTimeout     = errors.New("ctrld start timed out")
)

// Config is everything Resolve decided.
type Config struct {
	Ctrld string
	Home  string
	// RecordDir holds the last-result record: Home, except on Windows.
	RecordDir    string
	Prefs        string
	SettingsFile string
	ServiceFiles []string
	Timeout      time.Duration
	GateTimeout  time.Duration
	PrefsWait    time.Duration
	// Given holds settings from flags, --token-file and the environment.
	Given settings.Settings
	// Tokens holds every token value those sources gave, also those that
	// lost to another: all are redacted.
	Tokens []string
	// Env is the environment ctrld runs with.
	Env []string
	// Poll is the interval for the profile wait and the success gate.
	Poll time.Duration
	// Grace is how long ctrld gets to stop politely before a hard kill.
	Grace time.Duration
}

// Warner receives warnings that must not go to stdout. Callers pass
// messages that are already redacted.
type Warner interface{ Warn(msg string) }

// Log is the OS log: warnings and the outcome.
type Log interface {
	Warner
	Result(o codes.Outcome)
}

// Provisioner runs one attempt.
type Provisioner struct {
	Config Config
	OS     platform.OS
	Log    Log
	// seen holds every token value met in any source, for redaction.
	seen []string
	// files keep their warnings from one poll to the next.
	files *managed.Files
}

// Run provisions, records the outcome while it still holds the lock,
// sends it to the OS log, and returns it. It never returns an outcome
// built from ctrld's text: only from validated fields. An outcome decided
// before the lock is held (INSTALL_IN_PROGRESS above all) is not
// recorded: the run holding the lock owns the record.
func (p *Provisioner) Run(ctx context.Context) codes.Outcome {
	p.rememberGiven()
	o := p.safely(func() codes.Outcome { return p.underLock(ctx) })
	p.Log.Result(o)
	return o
}

func (p *Provisioner) underLock(ctx context.Context) codes.Outcome {
	if interrupted(ctx) {
		return codes.Failure(codes.WrapperInterrupted)
	}
	if err := os.MkdirAll(p.Config.Home, 0o700); err != nil {
		return p.internal("the ctrld home dir could not be created", err)
	}
	// A home dir someone else controls could hold a forged record or
	// result file, or ctrld's config: nothing is locked, run or written
	// in it.
	if err := safefile.TrustedDir(p.Config.Home); err != nil {
		return p.internal("the ctrld home dir is refused", err)
	}
	l, err := lock.Acquire(p.Config.Home)
	if errors.Is(err, lock.ErrBusy) {
		return codes.Failure(codes.InstallInProgress)
	}
	if err != nil {
		return p.internal("the lock could not be taken", err)
	}
	defer l.Release()
	// A run killed with SIGKILL may have left part of ctrld's tree
	// running: never two ctrld start at once.
	if lock.TreeAlive(p.Config.Home) {
		return codes.Failure(codes.InstallInProgress)
	}
	// Success is the usual outcome: its record is flushed to disk while
	// ctrld runs, and only renamed into place if it comes true.
	pending := record.Prepare(p.Config.RecordDir, codes.Success)
	// Result files are stamped to the second.
	began := time.Now().Truncate(time.Second)
	o := p.safely(func() codes.Outcome { return p.provision(ctx) })
	if err := pending.Record(o); err != nil {
		p.warn("the result could not be recorded for `ctrld-install last`: " + p.reason(err))
		evidence.Remove(p.Config.RecordDir)
		return o
	}
	p.keepEvidence(began, o)
	return o
}

// safely turns a panic into WRAPPER_INTERNAL, saying why in the OS log:
// the installer still gets one line and a code from the table.
func (p *Provisioner) safely(run func() codes.Outcome) (o codes.Outcome) {
	defer func() {
		if r := recover(); r != nil {
			o = p.internal("internal error", fmt.Errorf("%v", r))
		}
	}()
	return run()
}

// internal reports WRAPPER_INTERNAL and tells the OS log why, with every
// token value seen redacted.
func (p *Provisioner) internal(what string, err error) codes.Outcome {
	p.warn(codes.WrapperInternal.Name + ": " + what + ": " + p.reason(err))
	return codes.Failure(codes.WrapperInternal)
}

// HasWork reports whether start would do anything but fail for want of a
// token: a token is available from some source, ctrld's service is
// already installed (an upgrade), or another ctrld line's service is,
// with a resolver uid to move with. Package scripts use it to install
// quietly on machines that were never given settings. It does not wait
// for a profile. It fails only when interrupted.
func (p *Provisioner) HasWork(ctx context.Context) (bool, error) {
	p.rememberGiven()
	if p.OS.Installed(p.service()) {
		return true, nil
	}
	if o, found := p.otherLine(p.service()); found && o.UID != "" {
		return true, nil
	}
	s, err := p.gather(ctx)
	if err != nil {
		return false, err
	}
	_, ok := s.Get(settings.ProvisionToken)
	return ok, nil
}

func (p *Provisioner) provision(ctx context.Context) codes.Outcome {
	run, err := CtrldUsable(p.OS, p.Config.Ctrld)
	if err != nil {
		p.warn("ctrld not run: " + p.reason(err))
		return codes.Failure(codes.CtrldNotFound)
	}
	p.Config.Ctrld = run
	svc := p.service()
	if o, failed := p.moveOffLegacyDir(ctx, svc); failed {
		return o
	}
	installed := p.OS.Installed(svc)
	if o, found := p.otherLine(svc); found {
		if installed {
			return p.moveUpgrade(ctx, svc, o)
		}
		return p.moveFresh(ctx, svc, o)
	}
	if installed {
		return p.upgrade(ctx, svc)
	}
	return p.fresh(ctx, svc)
}

func interrupted(ctx context.Context) bool {
	return errors.Is(context.Cause(ctx), ErrInterrupted)
}
