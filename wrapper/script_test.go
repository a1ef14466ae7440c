//go:build linux

// The scenarios run the wrapper as it runs on Linux, against the fake
// ctrld: on macOS the same command would drive the host's launchctl.

package main

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"howett.net/plist"

	"github.com/ctrld-install/ctrld-install/internal/codes"
	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
	"github.com/ctrld-install/ctrld-install/testdata/fakectrld/tokenhash"
)

// binDir holds the real ctrld-install and the fake ctrld, built once.
var binDir string

func TestMain(m *testing.M) {
	testenv.RunMoreThanCPUs()
	dir, err := os.MkdirTemp("", "ctrld-install-bin")
	if err != nil {
		panic(err)
	}
	binDir = dir
	code := func() int {
		defer os.RemoveAll(dir)
		if err := buildBinaries(dir); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return m.Run()
	}()
	os.Exit(code)
}

// testVersion is stamped into the release build the way the release
// pipeline stamps it.
const testVersion = "9.8.7-test"

// releaseFlags are the build flags of internal/release/binaries.go, so
// that what the tests and benchmarks run is what ships.
var releaseFlags = []string{"-trimpath", "-ldflags", "-s -w -buildid= -X " + names.VersionVar + "=" + testVersion}

// buildBinaries builds the fake ctrld; ctrld-install from the test main,
// which adds the debug seams the scenarios need (the syslog socket); and
// ctrld-install-release from the release main, built as the release
// builds it.
func buildBinaries(dir string) error {
	for name, build := range map[string]struct {
		pkg   string
		flags []string
	}{
		"ctrld-install":         {"./wrapper/internal/testmain", nil},
		"ctrld-install-release": {"./wrapper", releaseFlags},
		"ctrld":                 {"./testdata/fakectrld", nil},
	} {
		if err := testenv.Build(filepath.Join(dir, name), build.pkg, build.flags); err != nil {
			return err
		}
	}
	return nil
}

// TestScripts runs the CLI scenarios in testdata/script, one behaviour a
// file, against the wrapper (its test main) and the fake ctrld.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		Setup:               setupScript,
		Condition:           scriptCondition,
		Cmds: map[string]func(*testscript.TestScript, bool, []string){
			"provision":     cmdProvision,
			"nocanary":      cmdNoCanary,
			"mkplist":       cmdMkplist,
			"termbg":        cmdTermBackground,
			"pidalive":      cmdPidAlive,
			"syslog":        cmdSyslog,
			"waitfile":      cmdWaitFile,
			"delayedwrite":  cmdDelayedWrite,
			"maxrss":        cmdMaxRSS,
			"stalledsyslog": cmdStalledSyslog,
			"foreigngroup":  cmdForeignGroup,
			"preflight":     cmdPreflight,
			"holdport":      cmdHoldPort,
			"holdlock":      cmdHoldLock,
			"marktree":      cmdMarkTree,
			"fakeapi":       cmdFakeAPI,
		},
	})
}

const syslogKey = "syslog"

// syslogSocketEnv is the test main's syslog seam.
const syslogSocketEnv = "CTRLD_INSTALL_TEST_SYSLOG"

// etcRootEnv is the test main's seam for the /etc the cleanup after
// uninstall works in.
const etcRootEnv = "CTRLD_INSTALL_TEST_ETC"

func setupScript(env *testscript.Env) error {
	work := env.WorkDir
	env.Setenv("PATH", binDir+string(os.PathListSeparator)+os.Getenv("PATH"))
	env.Setenv("CTRLD", filepath.Join(binDir, "ctrld"))
	env.Setenv("WRAPPER", filepath.Join(binDir, "ctrld-install"))
	env.Setenv("RELEASE_WRAPPER", filepath.Join(binDir, "ctrld-install-release"))
	env.Setenv("TEST_VERSION", testVersion)
	env.Setenv("CANARY", testenv.Canary)
	env.Setenv("CODE_CANARY", testenv.CodeCanary)
	env.Setenv("CANARY_SHA", tokenhash.Of(testenv.Canary))
	env.Setenv("FAKE_CTRLD_SCENARIO", filepath.Join(work, "scenario"))
	env.Setenv("FAKE_CTRLD_HOME", filepath.Join(work, "home"))
	env.Setenv("FAKE_CTRLD_RECORD", filepath.Join(work, "calls"))
	env.Setenv("FAKE_CTRLD_SERVICE_FILE", filepath.Join(work, "svc", "ctrld.service"))
	env.Setenv(names.TokenEnv, "")
	// preflight's checks reach the real API only when a scenario says so.
	env.Setenv("API_URL", "https://127.0.0.1:1")
	env.Setenv(etcRootEnv, filepath.Join(work, "etc"))
	if err := os.MkdirAll(filepath.Join(work, "svc"), 0o755); err != nil {
		return err
	}
	log, err := listenSyslog()
	if err != nil {
		return err
	}
	env.Values[syslogKey] = log
	env.Setenv(syslogSocketEnv, log.path)
	env.Defer(log.close)
	return nil
}

// syslogCapture is a unixgram socket standing in for /dev/log.
type syslogCapture struct {
	dir, path string
	conn      *net.UnixConn
	mu        sync.Mutex
	buf       bytes.Buffer
	last      time.Time
}

func listenSyslog() (*syslogCapture, error) {
	// Socket paths are short; the work dir may be too deep for one.
	dir, err := os.MkdirTemp("", "sl")
	if err != nil {
		return nil, err
	}
	c := &syslogCapture{dir: dir, path: filepath.Join(dir, "log.sock")}
	c.conn, err = net.ListenUnixgram("unixgram", &net.UnixAddr{Name: c.path, Net: "unixgram"})
	if err != nil {
		return nil, err
	}
	go c.read()
	return c, nil
}

func (c *syslogCapture) read() {
	msg := make([]byte, 64<<10)
	for {
		n, err := c.conn.Read(msg)
		if err != nil {
			return
		}
		c.mu.Lock()
		c.buf.Write(msg[:n])
		c.buf.WriteByte('\n')
		c.last = time.Now()
		c.mu.Unlock()
	}
}

func (c *syslogCapture) text() string {
	// Datagrams are already queued when the wrapper exits; give the reader
	// a moment to drain them.
	time.Sleep(100 * time.Millisecond)
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf.String()
}

func (c *syslogCapture) close() {
	c.conn.Close()
	os.RemoveAll(c.dir)
}

var lineGrammar = regexp.MustCompile(codes.LinePattern)

// startDefaults are the flags every scenario's start needs to stay inside
// its work dir; a scenario names one only to vary it.
var startDefaults = [][2]string{
	{"--ctrld", "$CTRLD"},
	{"--home", "$WORK/home"},
	{"--service-file", "$WORK/svc/ctrld.service"},
	{"--settings", "$WORK/none"},
}

// withStartDefaults adds each default flag the arguments do not set.
func withStartDefaults(ts *testscript.TestScript, args []string) []string {
	var out []string
	for _, d := range startDefaults {
		if !slices.ContainsFunc(args, func(a string) bool { return a == d[0] || strings.HasPrefix(a, d[0]+"=") }) {
			out = append(out, d[0], os.Expand(d[1], ts.Getenv))
		}
	}
	return append(out, args...)
}

// provision EXIT [flags...] runs `ctrld-install start` with the usual
// --ctrld, --home, --service-file and --settings (each unless the flags
// give it) and checks the contract every run must keep: the exit code,
// exactly one line on stdout that matches the grammar and names that exit
// code, nothing on stderr, and no canary in either. stdout and stderr
// stay available to later commands.
func cmdProvision(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 {
		ts.Fatalf("usage: provision EXIT [flags...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("bad exit code %q", args[0])
	}
	got, err := testenv.ExitCode(ts.Exec("ctrld-install", append([]string{"start"}, withStartDefaults(ts, args[1:])...)...))
	if err != nil {
		ts.Fatalf("running ctrld-install: %v", err)
	}
	stdout, stderr := ts.ReadFile("stdout"), ts.ReadFile("stderr")
	if got != want {
		ts.Fatalf("exit code %d, want %d", got, want)
	}
	if stderr != "" {
		ts.Fatalf("stderr not empty: %q", stderr)
	}
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if len(lines) != 1 || !strings.HasSuffix(stdout, "\n") || !lineGrammar.MatchString(lines[0]) {
		ts.Fatalf("stdout is not exactly one line of the grammar: %q", stdout)
	}
	if !strings.HasSuffix(lines[0], fmt.Sprintf("(exit %d)", want)) {
		ts.Fatalf("line %q does not carry exit %d", lines[0], want)
	}
	if strings.Contains(stdout+stderr, testenv.Canary) {
		ts.Fatalf("canary token in output")
	}
}

// nocanary [FILE...] fails when either canary token, or a run of a dozen
// of its characters in any case, is in any file under the work dir, other
// than the named inputs that hold it on purpose, or in what was sent to
// syslog.
func cmdNoCanary(ts *testscript.TestScript, neg bool, args []string) {
	var except []string
	for _, a := range args {
		except = append(except, ts.MkAbs(a))
	}
	log := ts.Value(syslogKey).(*syslogCapture).text()
	for _, canary := range []string{testenv.Canary, testenv.CodeCanary} {
		if found := testenv.FilesWithPartOf(ts.Getenv("WORK"), canary, except...); len(found) > 0 {
			ts.Fatalf("canary token %s found in %v", canary, found)
		}
		if testenv.HoldsPartOf([]byte(log), canary) {
			ts.Fatalf("canary token %s sent to syslog", canary)
		}
	}
}

// mkplist binary|xml FILE KEY=VALUE... writes a managed-preferences plist.
// A value bool:true or int:1 is typed; anything else is a string, with
// $CANARY expanded by the script as usual.
func cmdMkplist(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 {
		ts.Fatalf("usage: mkplist binary|xml FILE KEY=VALUE...")
	}
	format := map[string]int{"binary": plist.BinaryFormat, "xml": plist.XMLFormat}[args[0]]
	if format == 0 {
		ts.Fatalf("unknown plist format %q", args[0])
	}
	prefs := map[string]any{}
	for _, kv := range args[2:] {
		k, v, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(v, "bool:"):
			prefs[k] = v == "bool:true"
		case strings.HasPrefix(v, "int:"):
			n, _ := strconv.Atoi(strings.TrimPrefix(v, "int:"))
			prefs[k] = n
		default:
			prefs[k] = v
		}
	}
	data, err := plist.Marshal(prefs, format)
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), data, 0o644))
}

// termbg [TERM|HUP|QUIT|INT] sends the signal (SIGTERM unless named) to
// every background command.
func cmdTermBackground(ts *testscript.TestScript, neg bool, args []string) {
	sig := syscall.SIGTERM
	if len(args) > 0 {
		named, ok := map[string]syscall.Signal{"TERM": syscall.SIGTERM, "HUP": syscall.SIGHUP, "QUIT": syscall.SIGQUIT, "INT": syscall.SIGINT}[args[0]]
		if !ok {
			ts.Fatalf("unknown signal %q", args[0])
		}
		sig = named
	}
	for _, cmd := range ts.BackgroundCmds() {
		if cmd.Process != nil {
			cmd.Process.Signal(sig)
		}
	}
}

// pidalive PIDFILE succeeds when the process named in PIDFILE runs (a
// zombie counts as gone).
// killTakesEffect bounds how long a killed process may take to die.
const killTakesEffect = 2 * time.Second

func cmdPidAlive(ts *testscript.TestScript, neg bool, args []string) {
	data, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	ts.Check(err)
	alive := testenv.ProcessAlive(pid)
	// A SIGKILL is delivered at once but takes effect when the process
	// next runs: on a loaded machine a killed process is still dying for
	// a moment, so "! pidalive" gives it a bounded while.
	for deadline := time.Now().Add(killTakesEffect); neg && alive && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
		alive = testenv.ProcessAlive(pid)
	}
	if alive == neg {
		ts.Fatalf("process %d alive=%v", pid, alive)
	}
	if alive && neg {
		syscall.Kill(pid, syscall.SIGKILL)
	}
}

// foreigngroup PIDFILE starts a local user's process, sleep in a session
// and process group of its own (as nobody when the tests run as root),
// and writes its pid: the group id a stale tree marker may name.
func cmdForeignGroup(ts *testscript.TestScript, neg bool, args []string) {
	cmd := exec.Command("sleep", "60")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if os.Geteuid() == 0 {
		cmd.SysProcAttr.Credential = &syscall.Credential{Uid: nobody, Gid: nobody}
	}
	ts.Check(cmd.Start())
	ts.Defer(func() { cmd.Process.Kill(); cmd.Wait() })
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(strconv.Itoa(cmd.Process.Pid)), 0o644))
}

// nobody is the uid of foreigngroup's process.
const nobody = 65534

// syslog prints what the wrapper sent to syslog so far.
func cmdSyslog(ts *testscript.TestScript, neg bool, args []string) {
	fmt.Fprint(ts.Stdout(), ts.Value(syslogKey).(*syslogCapture).text())
}

// stalledsyslog points the wrapper's OS log at a unixgram socket that
// nobody reads and whose queue is already full: a stalled log reader.
func cmdStalledSyslog(ts *testscript.TestScript, neg bool, args []string) {
	dir, err := os.MkdirTemp("", "st")
	ts.Check(err)
	path := filepath.Join(dir, "stalled.sock")
	conn, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: path, Net: "unixgram"})
	ts.Check(err)
	filler, err := net.DialUnix("unixgram", nil, &net.UnixAddr{Name: path, Net: "unixgram"})
	ts.Check(err)
	ts.Defer(func() { filler.Close(); conn.Close(); os.RemoveAll(dir) })
	msg := make([]byte, 1024)
	for {
		filler.SetWriteDeadline(time.Now().Add(50 * time.Millisecond))
		if _, err := filler.Write(msg); err != nil {
			break
		}
	}
	ts.Setenv(syslogSocketEnv, path)
}

// waitfile FILE waits up to 20s for FILE to exist.
func cmdWaitFile(ts *testscript.TestScript, neg bool, args []string) {
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if _, err := os.Stat(ts.MkAbs(args[0])); err == nil {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	ts.Fatalf("%s never appeared", args[0])
}

// delayedwrite DURATION SRC DST copies SRC to DST after DURATION, in the
// background: a profile arriving while the wrapper waits.
func cmdDelayedWrite(ts *testscript.TestScript, neg bool, args []string) {
	d, err := time.ParseDuration(args[0])
	ts.Check(err)
	data, err := os.ReadFile(ts.MkAbs(args[1]))
	ts.Check(err)
	dst := ts.MkAbs(args[2])
	go func() {
		time.Sleep(d)
		os.WriteFile(dst+".tmp", data, 0o644)
		os.Rename(dst+".tmp", dst)
	}()
}

// maxrss LIMIT_MIB [flags...] runs `ctrld-install start` (with the
// defaults provision adds) and fails when
// its peak resident memory exceeds the limit. It checks that memory stays
// bounded, far below what buffering the output would take; the benchmark
// reports the real figure.
func cmdMaxRSS(ts *testscript.TestScript, neg bool, args []string) {
	limit, err := strconv.Atoi(args[0])
	ts.Check(err)
	cmd := exec.Command(filepath.Join(binDir, "ctrld-install"), append([]string{"start"}, withStartDefaults(ts, args[1:])...)...)
	cmd.Env = scriptEnv(ts)
	out, _ := cmd.Output()
	rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss / 1024
	fmt.Fprintf(ts.Stdout(), "%speak RSS %d MiB\n", out, rss)
	if rss > int64(limit) {
		ts.Fatalf("peak RSS %d MiB over %d MiB", rss, limit)
	}
}

func scriptEnv(ts *testscript.TestScript) []string {
	var env []string
	for _, k := range []string{"PATH", "HOME", "FAKE_CTRLD_SCENARIO", "FAKE_CTRLD_HOME", "FAKE_CTRLD_RECORD",
		"FAKE_CTRLD_SERVICE_FILE", names.TokenEnv, syslogSocketEnv, etcRootEnv} {
		env = append(env, k+"="+ts.Getenv(k))
	}
	return env
}

// scriptCondition answers [root]: whether the scenario runs as root, the
// only user whose settings file counts. Under CI, where a skip would
// prove nothing, a full run that is not root fails instead.
func scriptCondition(cond string) (bool, error) {
	if cond != "root" {
		return false, fmt.Errorf("unknown condition %q", cond)
	}
	if os.Geteuid() == 0 {
		return true, nil
	}
	if testenv.SkipFails() {
		return false, errors.New("CI must run the scenarios that need root as root")
	}
	return false, nil
}
