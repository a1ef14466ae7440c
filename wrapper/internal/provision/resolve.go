package provision

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/internal/settings"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/platform"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/safefile"
)

// Input is what the command line was given. An empty value means the OS
// default.
type Input struct {
	Ctrld, Home, Prefs, ServiceFile, SettingsFile string
	TokenFile                                     string
	// Flags holds the settings given as flags, each under its key.
	Flags                settings.Settings
	Timeout, GateTimeout time.Duration
	// PrefsWait counts only when PrefsWaitSet: 0 is a valid wait.
	PrefsWait    time.Duration
	PrefsWaitSet bool
}

// Default bounds, the command line's defaults.
const (
	DefaultTimeout     = 5 * time.Minute
	DefaultGateTimeout = 30 * time.Second
)

const (
	poll  = 250 * time.Millisecond
	grace = 3 * time.Second
)

// Resolve decides the configuration: the OS defaults for what the input
// leaves empty, and the token's precedence (--token-file, then --token,
// then the environment variable; managed settings come later, in gather).
// env is the wrapper's environment; ctrld gets it without the token.
func Resolve(in Input, osys platform.OS, env []string, log Warner) Config {
	ctrld := in.Ctrld
	if ctrld == "" {
		ctrld = findCtrld(osys)
	}
	defaults := osys.Defaults(ctrldDir(ctrld))
	home := orDefault(in.Home, defaults.Home)
	cfg := Config{
		Ctrld:        ctrld,
		Home:         home,
		RecordDir:    osys.RecordDir(home),
		Prefs:        orDefault(in.Prefs, defaults.Prefs),
		SettingsFile: orDefault(in.SettingsFile, defaults.Settings),
		ServiceFiles: osys.ServiceFiles(ServiceName(ctrld)),
		Timeout:      in.Timeout,
		GateTimeout:  in.GateTimeout,
		PrefsWait:    defaults.PrefsWait,
		Env:          CtrldEnv(env, runtime.GOOS),
		Poll:         poll,
		Grace:        grace,
	}
	cfg.Given, cfg.Tokens = given(in, env, runtime.GOOS, log)
	if in.ServiceFile != "" {
		cfg.ServiceFiles = []string{in.ServiceFile}
	}
	if in.PrefsWaitSet {
		cfg.PrefsWait = in.PrefsWait
	}
	return cfg
}

// given collects the settings of the command line and environment. The
// token file beats --token, which beats the environment variable. tokens
// are all the token values these sources hold, those that lost too, and
// every value of the variable (on goos, a GOOS value, in any spelling
// that CtrldEnv drops).
func given(in Input, env []string, goos string, log Warner) (s settings.Settings, tokens []string) {
	s = settings.Settings{}
	if tok := lookupEnv(env, TokenEnv); tok != "" {
		s[settings.ProvisionToken] = tok
	}
	for k, v := range in.Flags {
		if v != "" {
			s[k] = v
		}
	}
	tokens = append(tokenValues(env, goos), in.Flags[settings.ProvisionToken])
	if in.TokenFile != "" {
		tok, err := readTokenFile(in.TokenFile)
		if err != nil {
			log.Warn("token file could not be read; token taken from the next source")
		} else if tok != "" {
			s[settings.ProvisionToken] = tok
			tokens = append(tokens, tok)
		}
	}
	return s, tokens
}

// tokenValues returns the value of every token variable in env.
func tokenValues(env []string, goos string) []string {
	var values []string
	for _, kv := range env {
		if name, v, _ := strings.Cut(kv, "="); isTokenVar(name, goos) {
			values = append(values, v)
		}
	}
	return values
}

func lookupEnv(env []string, key string) string {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, key+"="); ok {
			return v
		}
	}
	return ""
}

// maxTokenFile caps a token file; a larger one is not a token.
const maxTokenFile = 64 << 10

// readTokenFile reads the token, trimming one trailing LF or CRLF. Any
// other whitespace stays, so a malformed token is reported as one. The
// file must be a regular file (a link to one is fine: the caller chose
// it): a FIFO or a device is refused at once instead of waited on.
func readTokenFile(path string) (string, error) {
	data, err := safefile.Read(path, safefile.Options{MaxSize: maxTokenFile})
	if err != nil {
		return "", err
	}
	tok := string(data)
	if strings.HasSuffix(tok, "\r\n") {
		return tok[:len(tok)-2], nil
	}
	return strings.TrimSuffix(tok, "\n"), nil
}

// findCtrld is ctrld under either of its release names beside this
// binary, or "" when neither is there.
func findCtrld(osys platform.OS) string {
	dir, ok := selfDir()
	if !ok {
		return ""
	}
	for _, name := range names.CtrldNames {
		p := filepath.Join(dir, osys.ProgramFile(name))
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
