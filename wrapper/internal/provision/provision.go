// Package provision is the wrapper's decision logic: gather settings, run
// ctrld start (or reload the service on upgrade), and turn what happened
// into exactly one outcome.
package provision

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/ctrld-install/ctrld-install/contract"
	"github.com/ctrld-install/ctrld-install/internal/settings"
	"github.com/ctrld-install/ctrld-install/wrapper/codes"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/evidence"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/lock"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/managed"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/platform"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/report"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/safefile"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/secret"
)

// Causes for ending a run early, given to context.WithCancelCause.
var (
	ErrInterrupted = errors.New("interrupted")
	errTimeout     = errors.New("ctrld start timed out")
)

// TokenEnv is the environment variable that may carry the token. It is
// removed from ctrld's environment: the token reaches ctrld only in argv.
const TokenEnv = contract.TokenEnv

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
	pending := report.Prepare(p.Config.RecordDir, codes.Success)
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

// remember notes the token of a source, so that messages can redact it.
func (p *Provisioner) remember(s settings.Settings) { p.know(s[settings.ProvisionToken]) }

// rememberGiven notes every token of the command line and environment.
func (p *Provisioner) rememberGiven() {
	p.remember(p.Config.Given)
	p.know(p.Config.Tokens...)
}

func (p *Provisioner) know(tokens ...string) {
	for _, tok := range tokens {
		if tok != "" && !slices.Contains(p.seen, tok) {
			p.seen = append(p.seen, tok)
		}
	}
}

func (p *Provisioner) reason(err error) string { return secret.Reason(err, p.seen...) }

// warn sends a warning to the OS log with every token value seen so far
// redacted: the last guard for messages built from settings.
func (p *Provisioner) warn(msg string) { p.Log.Warn(secret.Redact(msg, p.seen...)) }

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

func (p *Provisioner) service() platform.Service {
	svc := ctrldService(p.Config)
	svc.Files, svc.Env = p.Config.ServiceFiles, p.Config.Env
	return svc
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

// ServiceName follows the binary's name, since releases differ (ctrld,
// ctrld-client).
func ServiceName(ctrld string) string {
	base := filepath.Base(ctrld)
	if strings.EqualFold(filepath.Ext(base), ".exe") {
		base = base[:len(base)-len(".exe")]
	}
	return base
}

func (p *Provisioner) fresh(ctx context.Context, svc platform.Service) codes.Outcome {
	s, err := p.waitForToken(ctx)
	if err != nil {
		return codes.Failure(codes.WrapperInterrupted)
	}
	if _, ok := s.Get(settings.ProvisionToken); !ok {
		return codes.Failure(codes.ProfilePrefsMissing)
	}
	if bad, failed := p.checkInputs(s); failed {
		return bad
	}
	o := p.start(ctx, svc, freshArgs(s))
	if !o.OK {
		p.undo()
	}
	return o
}

// undo runs the clean-up after a failed fresh install, even when the run
// was interrupted: a failure must never leave the machine without DNS
// (a ctrld unit active, enabled or failed, or resolv.conf pointing at a
// listener that is not there).
func (p *Provisioner) undo() {
	ctx, cancel := context.WithTimeout(context.Background(), p.OS.Bounds().Cleanup)
	defer cancel()
	cleanUp(ctx, p.Config, p.OS)
}

// checkInputs reports ctrld's own input codes for settings ctrld would
// refuse, so one failure has one code whoever finds it. The OS log
// describes the offending value, never quoting it.
func (p *Provisioner) checkInputs(s settings.Settings) (codes.Outcome, bool) {
	for _, check := range InputChecks {
		if c, why, bad := check.Judge(s, p.seen); bad {
			p.warn(why)
			return codes.Failure(c), true
		}
	}
	return codes.Outcome{}, false
}

// InputCheck judges one setting as ctrld would. When the setting is bad,
// Judge returns ctrld's input code and why, in words that quote no value
// (seen, every token value met, is there for checks that would).
type InputCheck struct {
	Key   settings.Key
	Judge func(s settings.Settings, seen []string) (c codes.Code, why string, bad bool)
}

// InputChecks are start's checks of the settings, in start's order: one
// for each setting of the table with values ctrld refuses.
var InputChecks = inputChecks()

func inputChecks() []InputCheck {
	var checks []InputCheck
	for _, st := range settings.Table {
		if st.Checked() {
			checks = append(checks, InputCheck{st.Key, judge(st)})
		}
	}
	return checks
}

// judge checks the value of st when it is set. The callers report a
// missing token, PROFILE_PREFS_MISSING, before any check.
func judge(st settings.Setting) func(settings.Settings, []string) (codes.Code, string, bool) {
	return func(s settings.Settings, seen []string) (codes.Code, string, bool) {
		v, set := s.Get(st.Key)
		if !set || st.Accepts(v) {
			return codes.Code{}, "", false
		}
		return st.Invalid, refusal(st, v), true
	}
}

// refusal says why ctrld would refuse v without quoting any of it: a
// bad value of any setting may be a token typed into the wrong field, and
// whether a token is known to redact or not, only the value's length and
// kinds of characters are told. An enumerated setting names its choices.
func refusal(st settings.Setting, v string) string {
	key := string(st.Key)
	switch {
	case st.Secret:
		return key + " is malformed (" + secret.Describe(v) + "; " + st.Rule + ")"
	case len(st.Choices) > 0:
		return key + " (" + secret.Describe(v) + ") is not " + strings.Join(st.ChoiceValues(), " or ")
	}
	return key + " (" + secret.Describe(v) + ") is not " + st.Rule
}

// freshArgs are ctrld start's arguments: each set setting's, in the
// table's order.
func freshArgs(s settings.Settings) []string {
	args := []string{"start"}
	for _, st := range settings.Table {
		if v, ok := s.Get(st.Key); ok {
			args = append(args, st.Ctrld(v)...)
		}
	}
	return args
}

// upgrade never needs the token. With an InterceptMode it restarts ctrld
// in that mode; without one it reloads the existing service.
func (p *Provisioner) upgrade(ctx context.Context, svc platform.Service) codes.Outcome {
	s, err := p.gather(ctx)
	if err != nil {
		return codes.Failure(codes.WrapperInterrupted)
	}
	if m, set := s.Get(settings.InterceptMode); set {
		if arg, ok := settings.InterceptArg(m); ok {
			return p.start(ctx, svc, []string{"start", settings.CtrldInterceptFlag, arg})
		}
		intercept, _ := settings.Lookup(settings.InterceptMode)
		p.warn(refusal(intercept, m) + "; ignored on upgrade, service reloaded as it is")
	}
	return p.reload(ctx, svc)
}

// reloadBounds are the OS's bounds on an upgrade's reload and on its
// restart; where the OS sets none, the run's default timeouts.
func (p *Provisioner) reloadBounds() (budget, restart time.Duration) {
	b := p.OS.Bounds()
	if b.Reload == 0 {
		return DefaultTimeout + DefaultGateTimeout, DefaultTimeout
	}
	return b.Reload, b.Restart
}

// reload restarts the existing service within the reload budget, its success
// gate included: an offline upgrade must not hold the package manager for
// minutes. A reload that fails, is cut short or finds the daemon not
// ready is SERVICE_RELOAD_FAILED, and the service still runs.
func (p *Provisioner) reload(ctx context.Context, svc platform.Service) codes.Outcome {
	budget, restart := p.reloadBounds()
	bctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	rctx, cancelRun := context.WithTimeoutCause(bctx, min(p.Config.Timeout, restart), errTimeout)
	defer cancelRun()
	err := p.OS.Reload(rctx, svc)
	if interrupted(ctx) {
		return codes.Failure(codes.WrapperInterrupted)
	}
	if err != nil {
		return codes.Failure(codes.ServiceReloadFailed)
	}
	return p.gate(bctx, svc)
}

// CtrldEnv drops the token variable from an environment on goos (a
// GOOS value), in any spelling isTokenVar takes: ctrld gets the token in
// argv only.
func CtrldEnv(env []string, goos string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if name, _, _ := strings.Cut(kv, "="); !isTokenVar(name, goos) {
			out = append(out, kv)
		}
	}
	return out
}

// isTokenVar reports whether an environment variable's name is TokenEnv
// on goos. Windows environment names ignore case.
func isTokenVar(name, goos string) bool {
	return name == TokenEnv || goos == "windows" && strings.EqualFold(name, TokenEnv)
}

func interrupted(ctx context.Context) bool {
	return errors.Is(context.Cause(ctx), ErrInterrupted)
}

// ErrNotExecutable means there is no ctrld to run at the path.
var ErrNotExecutable = errors.New("ctrld is missing or not executable")

// CtrldUsable returns the path to run ctrld by when start would run the
// ctrld at path: it is an executable regular file that no user but root
// can replace. The path returned is the one that was checked (its folder
// resolved, see safefile.CheckReplaceable). An error that wraps
// ErrNotExecutable says which of those it is not.
func CtrldUsable(osys platform.OS, path string) (string, error) {
	if err := executable(osys, path); err != nil {
		return "", fmt.Errorf("%w: %w", ErrNotExecutable, err)
	}
	return safefile.Replaceable(path)
}

// Why a path is no ctrld to run.
var (
	errNoPath     = errors.New("no path given")
	errNotRegular = errors.New("not a regular file")
	errNoExecBit  = errors.New("no execute permission")
)

func executable(osys platform.OS, path string) error {
	if path == "" {
		return errNoPath
	}
	info, err := os.Stat(path)
	switch {
	case err != nil:
		return err
	case !info.Mode().IsRegular():
		return errNotRegular
	case !osys.Runnable(info):
		return errNoExecBit
	}
	return nil
}
