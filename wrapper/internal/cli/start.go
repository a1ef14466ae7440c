package cli

import (
	"context"
	"flag"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/ctrld-install/ctrld-install/contract"
	"github.com/ctrld-install/ctrld-install/wrapper/codes"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/platform"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/provision"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/report"
	"github.com/ctrld-install/ctrld-install/wrapper/settings"
)

// startFlags are start's command line. Empty means "use the OS default".
type startFlags struct {
	ctrld, home, prefs, serviceFile, settingsFile, tokenFile, token string
	hostname, interceptMode                                         string
	dev                                                             bool
	timeout, gateTimeout, prefsWait                                 time.Duration
	prefsWaitSet                                                    bool
}

func newStartFlagSet(f *startFlags) *flag.FlagSet {
	fs := flag.NewFlagSet("start", flag.ContinueOnError)
	fs.StringVar(&f.ctrld, "ctrld", "", "the ctrld binary (default: ctrld or ctrld-client beside ctrld-install)")
	fs.StringVar(&f.home, "home", "", "ctrld home dir holding provision_result.json (default: /etc/controld; Windows: the ctrld folder)")
	fs.StringVar(&f.prefs, "prefs", "", "managed-settings plist, read on any OS (default on macOS: "+platform.ManagedPrefsPath+")")
	fs.StringVar(&f.serviceFile, "service-file", "", "the service definition whose presence means upgrade (launchd plist, systemd unit or init script)")
	fs.StringVar(&f.serviceFile, "plist", "", "macOS spelling of --service-file; also the success gate's launchd plist")
	fs.StringVar(&f.settingsFile, "settings", "", "settings file, Key=Value lines (default on Linux: "+platform.SettingsPath+")")
	fs.StringVar(&f.tokenFile, "token-file", "", "file holding the provisioning token (beats --token and "+provision.TokenEnv+")")
	fs.StringVar(&f.token, "token", "", "the provisioning token itself, for installers that can pass it only on the command line (the MSI); empty means none")
	fs.StringVar(&f.hostname, "custom-hostname", "", "CustomHostname setting (beats managed settings)")
	fs.StringVar(&f.interceptMode, "intercept-mode", "", "InterceptMode setting: standard or intercept-dns (beats managed settings)")
	fs.Var(optionalBool{&f.dev}, "dev", "UseDevEnvironment setting (--dev, or --dev=true|false|1|0; empty is false)")
	f.timeout, f.gateTimeout = 5*time.Minute, 30*time.Second
	fs.Var(durationFlag{&f.timeout}, "timeout", "bound on ctrld start")
	fs.Var(durationFlag{&f.gateTimeout}, "gate-timeout", "bound on the success gate")
	fs.Var(durationFlag{&f.prefsWait}, "prefs-wait", "bound on the wait for the managed-preferences profile (default 2m on macOS, 0 elsewhere)")
	return fs
}

func runStart(args []string, stdout, stderr io.Writer) int {
	var f startFlags
	fs := newStartFlagSet(&f)
	if exit, done := parseOrExplain(fs, args, stdout, stderr); done {
		return exit
	}
	fs.Visit(func(fl *flag.Flag) {
		if fl.Name == "prefs-wait" {
			f.prefsWaitSet = true
		}
	})

	syslog := report.OpenSystemLog()
	defer syslog.Close()
	ctx, stop := interruptContext()
	defer stop()
	osys := platform.Current()
	outcome := safely(func() codes.Outcome {
		p := &provision.Provisioner{Config: f.config(osys, syslog), OS: osys, Log: syslog}
		return p.Run(ctx)
	})
	deliver(stdout, syslog, osys, f.homeOrDefault(osys), outcome)
	return outcome.Exit()
}

// runConfigured answers, without output, whether start has work to do.
// It takes start's flags so it looks where start would look.
func runConfigured(args []string, stdout, stderr io.Writer) int {
	var f startFlags
	fs := newStartFlagSet(&f)
	fs.Init("configured", flag.ContinueOnError)
	if exit, done := parseOrExplain(fs, args, stdout, stderr); done {
		return exit
	}
	osys := platform.Current()
	quiet := report.OpenSystemLog()
	defer quiet.Close()
	p := &provision.Provisioner{Config: f.config(osys, quiet), OS: osys, Log: quiet}
	if p.HasWork() {
		return exitOK
	}
	return exitNone
}

// safely turns a panic into WRAPPER_INTERNAL: the installer still gets
// one line and a code from the table.
func safely(run func() codes.Outcome) (o codes.Outcome) {
	defer func() {
		if recover() != nil {
			o = codes.Failure(codes.WrapperInternal)
		}
	}()
	return run()
}

// deliver writes the line to stdout (errors such as a closed pipe are
// ignored: they must not change the exit code), the last-result file and
// the OS log. A run refused by the lock records nothing: the run holding
// the lock owns the record.
func deliver(stdout io.Writer, log report.SystemLog, osys platform.OS, home string, o codes.Outcome) {
	io.WriteString(stdout, o.Line()+"\n")
	log.Result(o)
	if o.Code == codes.InstallInProgress {
		return
	}
	report.SaveLast(osys.LastResultDir(home), o)
}

func (f *startFlags) config(osys platform.OS, log provision.Warner) provision.Config {
	ctrld := f.ctrldPath()
	defaults := osys.Defaults(ctrldDir(ctrld))
	cfg := provision.Config{
		Ctrld:        ctrld,
		Home:         f.homeOrDefault(osys),
		Prefs:        orDefault(f.prefs, defaults.Prefs),
		SettingsFile: orDefault(f.settingsFile, defaults.Settings),
		ServiceFiles: osys.ServiceFiles(provision.ServiceName(ctrld)),
		Timeout:      f.timeout,
		GateTimeout:  f.gateTimeout,
		PrefsWait:    defaults.PrefsWait,
		Given:        f.given(log),
		Env:          provision.CtrldEnv(os.Environ()),
		Poll:         250 * time.Millisecond,
		Grace:        3 * time.Second,
	}
	if f.serviceFile != "" {
		cfg.ServiceFiles = []string{f.serviceFile}
	}
	if f.prefsWaitSet {
		cfg.PrefsWait = f.prefsWait
	}
	return cfg
}

func (f *startFlags) homeOrDefault(osys platform.OS) string {
	return orDefault(f.home, osys.Defaults(ctrldDir(f.ctrldPath())).Home)
}

// given collects the settings of the command line and environment. The
// token file beats --token, which beats the environment variable.
func (f *startFlags) given(log provision.Warner) settings.Settings {
	s := settings.Settings{}
	if f.hostname != "" {
		s[settings.CustomHostname] = f.hostname
	}
	if f.interceptMode != "" {
		s[settings.InterceptMode] = f.interceptMode
	}
	if f.dev {
		s[settings.UseDevEnvironment] = "true"
	}
	if tok := os.Getenv(provision.TokenEnv); tok != "" {
		s[settings.ProvisionToken] = tok
	}
	if f.token != "" {
		s[settings.ProvisionToken] = f.token
	}
	if f.tokenFile != "" {
		tok, err := readTokenFile(f.tokenFile)
		if err != nil {
			log.Warn("token file could not be read; token taken from the next source")
		} else if tok != "" {
			s[settings.ProvisionToken] = tok
		}
	}
	return s
}

// ctrldPath is the flag, or ctrld (then ctrld-client) beside this binary.
func (f *startFlags) ctrldPath() string {
	if f.ctrld != "" {
		return f.ctrld
	}
	dir, ok := selfDir()
	if !ok {
		return ""
	}
	for _, name := range contract.CtrldNames {
		p := filepath.Join(dir, name+exeSuffix)
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

func ctrldDir(ctrld string) string {
	if ctrld != "" {
		return filepath.Dir(ctrld)
	}
	if dir, ok := selfDir(); ok {
		return dir
	}
	return "."
}

// selfDir is the folder of this binary. Without /proc (a minimal chroot)
// os.Executable fails; package scripts call the wrapper by absolute path,
// so argv[0] still tells.
func selfDir() (string, bool) {
	if self, err := os.Executable(); err == nil {
		return filepath.Dir(self), true
	}
	if filepath.IsAbs(os.Args[0]) {
		return filepath.Dir(os.Args[0]), true
	}
	return "", false
}

func orDefault(v, def string) string {
	if v != "" {
		return v
	}
	return def
}

// interruptContext is cancelled with provision.ErrInterrupted on SIGINT or
// SIGTERM (Ctrl+C or Ctrl+Break on Windows).
func interruptContext() (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	stopSignals := onInterrupt(func() { cancel(provision.ErrInterrupted) })
	return ctx, func() { stopSignals(); cancel(nil) }
}
