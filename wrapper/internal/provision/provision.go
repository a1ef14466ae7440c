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
	"strings"
	"time"

	"github.com/ctrld-install/ctrld-install/wrapper/codes"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/lock"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/platform"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/secret"
	"github.com/ctrld-install/ctrld-install/wrapper/settings"
)

// Causes for ending a run early, given to context.WithCancelCause.
var (
	ErrInterrupted = errors.New("interrupted")
	errTimeout     = errors.New("ctrld start timed out")
)

// TokenEnv is the environment variable that may carry the token. It is
// removed from ctrld's environment: the token reaches ctrld only in argv.
const TokenEnv = "CTRLD_PROVISION_TOKEN"

// Config is everything the command line decided.
type Config struct {
	Ctrld        string
	Home         string
	Prefs        string
	SettingsFile string
	ServiceFiles []string
	Timeout      time.Duration
	GateTimeout  time.Duration
	PrefsWait    time.Duration
	// Given holds settings from flags, --token-file and the environment.
	Given settings.Settings
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

// Provisioner runs one attempt.
type Provisioner struct {
	Config Config
	OS     platform.OS
	Log    Warner
}

// Run provisions and returns the outcome. It never returns an outcome
// built from ctrld's text: only from validated fields.
func (p *Provisioner) Run(ctx context.Context) codes.Outcome {
	if interrupted(ctx) {
		return codes.Package("WRAPPER_INTERRUPTED")
	}
	if err := os.MkdirAll(p.Config.Home, 0o700); err != nil {
		return codes.Package("WRAPPER_INTERNAL")
	}
	l, err := lock.Acquire(p.Config.Home)
	if errors.Is(err, lock.ErrBusy) {
		return codes.Package("INSTALL_IN_PROGRESS")
	}
	if err != nil {
		return codes.Package("WRAPPER_INTERNAL")
	}
	defer l.Release()
	return p.provision(ctx)
}

// HasWork reports whether start would do anything but fail for want of a
// token: a token is available from some source, or ctrld's service is
// already installed (an upgrade). Package scripts use it to install
// quietly on machines that were never given settings. It does not wait
// for a profile.
func (p *Provisioner) HasWork() bool {
	if p.OS.Installed(p.service()) {
		return true
	}
	_, ok := p.gather().Get(settings.ProvisionToken)
	return ok
}

func (p *Provisioner) service() platform.Service {
	return platform.Service{Name: ServiceName(p.Config.Ctrld), Ctrld: p.Config.Ctrld, Files: p.Config.ServiceFiles, Env: p.Config.Env}
}

func (p *Provisioner) provision(ctx context.Context) codes.Outcome {
	if !isExecutable(p.Config.Ctrld) {
		return codes.Package("CTRLD_NOT_FOUND")
	}
	svc := p.service()
	if p.OS.Installed(svc) {
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
		return codes.Package("WRAPPER_INTERRUPTED")
	}
	token, ok := s.Get(settings.ProvisionToken)
	if !ok {
		return codes.Package("PROFILE_PREFS_MISSING")
	}
	if bad, failed := p.checkInputs(s); failed {
		return bad
	}
	return p.start(ctx, svc, freshArgs(token, s))
}

// checkInputs reports ctrld's own input codes for settings ctrld would
// refuse, so one failure has one code whoever finds it. The offending
// value goes to the OS log only, with the token redacted from it; the
// token itself is never echoed.
func (p *Provisioner) checkInputs(s settings.Settings) (codes.Outcome, bool) {
	token, _ := s.Get(settings.ProvisionToken)
	if !settings.TokenWellFormed(token) {
		p.Log.Warn("ProvisionToken is malformed (whitespace, control characters, non-ASCII or length)")
		return codes.Failure(codes.MustLookup("PROVISION_TOKEN_MALFORMED")), true
	}
	if h, set := s.Get(settings.CustomHostname); set && !settings.HostnameValid(h) {
		p.Log.Warn(fmt.Sprintf("CustomHostname %q is not an RFC 1123 name of 3 to 64 characters", secret.Echo(h, token)))
		return codes.Failure(codes.MustLookup("CUSTOM_HOSTNAME_INVALID")), true
	}
	if m, set := s.Get(settings.InterceptMode); set {
		if _, ok := settings.InterceptArg(m); !ok {
			p.Log.Warn(fmt.Sprintf("InterceptMode %q is not standard or intercept-dns", secret.Echo(m, token)))
			return codes.Failure(codes.MustLookup("INTERCEPT_MODE_INVALID")), true
		}
	}
	return codes.Outcome{}, false
}

func freshArgs(token string, s settings.Settings) []string {
	args := []string{"start", "--cd-org=" + token}
	if h, ok := s.Get(settings.CustomHostname); ok {
		args = append(args, "--custom-hostname="+h)
	}
	if m, ok := s.Get(settings.InterceptMode); ok {
		if arg, _ := settings.InterceptArg(m); arg != "off" {
			args = append(args, "--intercept-mode", arg)
		}
	}
	if s.Bool(settings.UseDevEnvironment) {
		args = append(args, "--dev")
	}
	return args
}

// upgrade never needs the token. With an InterceptMode it restarts ctrld
// in that mode; without one it reloads the existing service.
func (p *Provisioner) upgrade(ctx context.Context, svc platform.Service) codes.Outcome {
	s := p.gather()
	if m, set := s.Get(settings.InterceptMode); set {
		if arg, ok := settings.InterceptArg(m); ok {
			return p.start(ctx, svc, []string{"start", "--intercept-mode", arg})
		}
		token, _ := s.Get(settings.ProvisionToken)
		p.Log.Warn(fmt.Sprintf("InterceptMode %q is not standard or intercept-dns; ignored on upgrade, service reloaded as it is",
			secret.Echo(m, token)))
	}
	return p.reload(ctx, svc)
}

func (p *Provisioner) reload(ctx context.Context, svc platform.Service) codes.Outcome {
	rctx, cancel := context.WithTimeoutCause(ctx, p.Config.Timeout, errTimeout)
	defer cancel()
	err := p.OS.Reload(rctx, svc)
	if interrupted(ctx) {
		return codes.Package("WRAPPER_INTERRUPTED")
	}
	if err != nil {
		return codes.Package("SERVICE_RELOAD_FAILED")
	}
	return p.gate(ctx, svc)
}

// CtrldEnv drops the token variable from an environment: ctrld gets the
// token in argv only.
func CtrldEnv(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if !strings.HasPrefix(kv, TokenEnv+"=") {
			out = append(out, kv)
		}
	}
	return out
}

func interrupted(ctx context.Context) bool {
	return errors.Is(context.Cause(ctx), ErrInterrupted)
}

func isExecutable(path string) bool {
	if path == "" {
		return false
	}
	info, err := os.Stat(path)
	if err != nil || !info.Mode().IsRegular() {
		return false
	}
	return executableMode(info)
}
