// Command fakectrld stands in for ctrld in tests and in demo builds. It
// behaves like ctrld v1.5.x where the wrapper can see it: zerolog-style
// console lines on stdout with ANSI colour even when piped, the token
// echoed in clear text in a fatal line, provision_result.json in the home
// dir, the v1.5.6 identifier line and stage exit codes, `ctrld status`
// exit codes 0-3, and a service file that appears when the service is
// installed. Its binary's name says which ctrld line it plays: as
// ctrld-client it is the client line (its service, its version), as
// anything else v1 or v2.0.0-pre by its format.
//
// A scenario file says what to do. It is found through FAKE_CTRLD_SCENARIO,
// else beside the binary as fake-ctrld.scenario; with none, every command
// succeeds. Lines are `key=value`; `#` starts a comment. A key missing from
// the file may come from the environment as FAKE_CTRLD_<KEY>. Keys:
//
//	home=DIR                  ctrld home dir for provision_result.json (default: beside the binary)
//	record=FILE               append one line per call: the argv, the token replaced by its sha256 prefix
//	service-file=FILE         created by a successful start, removed by a failing one
//	start.exit=N              exit code of start (default 0)
//	start.fail=STAGE,CODE,N   v1.5.6 failure: identifier line, service log, identifier again, result file, exit N
//	start.log=LVL message     one console line on stdout (repeatable; \e, \r, \n, \x00 unescaped)
//	start.stderr=text         one raw line on stderr (repeatable)
//	start.raw=text            raw bytes on stdout, no newline added (repeatable)
//	start.pause=DUR           pause between output lines (log, stderr, raw and pause run in file order)
//	start.echo-token=1        v1.5.0's fatal line that prints the token
//	start.result=STAGE,CODE,N[,AGE]  write the result file stamped AGE seconds ago (default 0)
//	start.result-file=FILE    write FILE as the result file (@NOW@ and @TOKEN@ filled in)
//	start.flood=BYTES         print that many bytes of text without a newline
//	start.sleep=DUR           sleep before finishing
//	start.ignore-term=1       ignore SIGTERM (a hung ctrld)
//	start.grandchild=PIDFILE  start a grandchild that sleeps; write its pid
//	start.pidfile=FILE        write start's own pid
//	status.exit=N,N,...       exit codes of successive status calls; the last repeats (default 0)
//	restart.exit=N            exit code of restart (default 0)
//	restart.sleep=DUR         sleep before restart finishes (a restart whose stop hangs)
//	version=VERSION           what --version reports (default: the line's and format's real binary, cli.go)
//	format=v1|v2              console format: v1.5.0's zerolog lines (default) or v2.0.0-pre's
//	                          tab-separated levels with JSON fields (format.go)
package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/testdata/fakectrld/tokenhash"
)

// scenario holds every key's values; steps keeps the output keys in file
// order so that stdout and stderr lines interleave as written.
type scenario struct {
	values map[string][]string
	steps  [][2]string
}

// get returns the last value of a key, else the environment variable
// FAKE_CTRLD_<KEY> (home becomes FAKE_CTRLD_HOME, start.exit becomes
// FAKE_CTRLD_START_EXIT).
func (s scenario) get(k string) string {
	if v := s.values[k]; len(v) > 0 {
		return v[len(v)-1]
	}
	return os.Getenv("FAKE_CTRLD_" + strings.ToUpper(strings.NewReplacer("-", "_", ".", "_").Replace(k)))
}

func (s scenario) num(k string, def int) int {
	n, err := strconv.Atoi(s.get(k))
	if err != nil {
		return def
	}
	return n
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "__sleep" {
		time.Sleep(time.Hour)
		return
	}
	sc, dir := loadScenario()
	logFormat = sc.get("format")
	record(sc, os.Args[1:])
	cmd := ""
	if len(os.Args) > 1 {
		cmd = os.Args[1]
	}
	switch cmd {
	case "--help", "-h":
		fmt.Print(helpText)
		os.Exit(0)
	case "--version":
		fmt.Print(versionLine(selfPath(), logFormat, sc.get("version")))
		os.Exit(0)
	case "start":
		os.Exit(start(sc, dir, os.Args[2:]))
	case "status":
		os.Exit(status(sc, dir))
	case "restart":
		if d, err := time.ParseDuration(sc.get("restart.sleep")); err == nil {
			time.Sleep(d)
		}
		os.Exit(sc.num("restart.exit", 0))
	case "stop", "uninstall":
		if f := sc.get("service-file"); f != "" {
			os.Remove(f)
		}
		uninstallService()
		os.Exit(0)
	case "run":
		runService()
		os.Exit(0)
	}
	fmt.Fprintf(os.Stderr, "Error: unknown command %q for \"ctrld\"\n", cmd)
	os.Exit(1)
}

// selfPath is the fake's own binary, whose name says which ctrld line it
// plays (ctrld or ctrld-client).
func selfPath() string {
	self, err := os.Executable()
	if err != nil {
		return os.Args[0] // no /proc in a minimal chroot
	}
	return self
}

func loadScenario() (scenario, string) {
	dir := filepath.Dir(selfPath())
	path := os.Getenv("FAKE_CTRLD_SCENARIO")
	if path == "" {
		path = filepath.Join(dir, "fake-ctrld.scenario")
	}
	sc := scenario{values: map[string][]string{}}
	f, err := os.Open(path)
	if err != nil {
		return sc, dir
	}
	defer f.Close()
	lines := bufio.NewScanner(f)
	for lines.Scan() {
		line := strings.TrimSpace(lines.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, _ := strings.Cut(line, "=")
		sc.values[k] = append(sc.values[k], v)
		sc.steps = append(sc.steps, [2]string{k, v})
	}
	return sc, dir
}

// record logs the call without the token: tests compare the hash.
func record(sc scenario, args []string) {
	path := sc.get("record")
	if path == "" {
		return
	}
	shown := make([]string, len(args))
	for i, a := range args {
		if tok, ok := strings.CutPrefix(a, "--cd-org="); ok {
			a = "--cd-org=sha256:" + tokenhash.Of(tok)
		}
		shown[i] = a
	}
	line := strings.Join(shown, " ")
	if _, ok := os.LookupEnv(names.TokenEnv); ok {
		line += " [env has " + names.TokenEnv + "]"
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	fmt.Fprintln(f, line)
}

func home(sc scenario, dir string) string {
	if h := sc.get("home"); h != "" {
		return h
	}
	return dir
}

func start(sc scenario, dir string, args []string) int {
	token := flagValue(args, "--cd-org")
	if p := sc.get("start.pidfile"); p != "" {
		writePidFile(p, os.Getpid())
	}
	if sc.get("start.ignore-term") == "1" {
		ignoreTerm()
	}
	if p := sc.get("start.grandchild"); p != "" {
		spawnGrandchild(p)
	}
	logLine("NTC", "Starting service")
	if sc.get("start.echo-token") == "1" {
		fatal := "failed to fetch resolver uid with provision token: "
		if sc.get("format") == formatV2 {
			fatal = "Failed to fetch resolver uid with provision token: "
		}
		errorLine("FTL", fatal+token, "postUtilityAPI client.Do: dial tcp: connect: network is unreachable")
	}
	printSteps(sc)
	if n := sc.num("start.flood", 0); n > 0 {
		flood(n)
	}
	if r := sc.get("start.result"); r != "" {
		writeResult(home(sc, dir), r)
	}
	if f := sc.get("start.result-file"); f != "" {
		copyResult(home(sc, dir), f, token)
	}
	exit := sc.num("start.exit", 0)
	if f := sc.get("start.fail"); f != "" {
		exit = failLikeV156(sc, dir, f)
	}
	if d, err := time.ParseDuration(sc.get("start.sleep")); err == nil {
		time.Sleep(d)
	}
	if exit == 0 {
		logLine("NTC", "Service started")
		if f := sc.get("service-file"); f != "" {
			os.WriteFile(f, []byte("fake ctrld service\n"), 0o644)
		}
		installService()
	}
	return exit
}

// printSteps writes the scenario's output lines in file order.
func printSteps(sc scenario) {
	for _, st := range sc.steps {
		v := unescape(st[1])
		switch st[0] {
		case "start.log":
			lvl, msg, _ := strings.Cut(v, " ")
			logLine(lvl, msg)
		case "start.stderr":
			fmt.Fprint(os.Stderr, v+"\n")
		case "start.raw":
			fmt.Print(v)
		case "start.pause":
			d, _ := time.ParseDuration(v)
			time.Sleep(d)
		}
	}
}

// failLikeV156 prints what ctrld v1.5.6 prints for a stage failure.
func failLikeV156(sc scenario, dir, spec string) int {
	parts := strings.Split(spec, ",")
	if len(parts) < 3 {
		return 1
	}
	id := fmt.Sprintf("provisioning failed: stage=%s code=%s (exit %s)", parts[0], parts[1], parts[2])
	logLine("ERR", id)
	logLine("ERR", "ctrld service may not have started due to an error or misconfiguration, service log:")
	fmt.Println("====")
	logLine("FTL", "listener.0 could not find available listen ip and port")
	fmt.Println("====")
	logLine("NTC", "Service uninstalled")
	logLine("ERR", id)
	writeResult(home(sc, dir), spec)
	if f := sc.get("service-file"); f != "" {
		os.Remove(f)
	}
	n, _ := strconv.Atoi(parts[2])
	return n
}

func status(sc scenario, dir string) int {
	seq := strings.Split(sc.get("status.exit"), ",")
	if seq[0] == "" {
		if code, known := serviceStatus(); known {
			return code
		}
		return 0
	}
	counter := filepath.Join(home(sc, dir), ".fake-ctrld-status-calls")
	data, _ := os.ReadFile(counter)
	calls, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	os.WriteFile(counter, []byte(strconv.Itoa(calls+1)), 0o644)
	n, _ := strconv.Atoi(seq[min(calls, len(seq)-1)])
	return n
}

// logFormat is the scenario's console format, read once.
var logFormat string

// logLine prints one console line as ctrld does, coloured even into a
// pipe, in the scenario's format.
func logLine(level, msg string) { errorLine(level, msg, "") }

// errorLine is logLine with an error field.
func errorLine(level, msg, errValue string) {
	fmt.Println(formatLine(logFormat, level, msg, errValue, time.Now()))
}

func writeResult(home, spec string) {
	parts := strings.Split(spec, ",")
	if len(parts) < 3 {
		return
	}
	exit, _ := strconv.Atoi(parts[2])
	age := 0
	if len(parts) > 3 {
		age, _ = strconv.Atoi(parts[3])
	}
	stamp := time.Now().Add(-time.Duration(age) * time.Second).UTC().Format(time.RFC3339)
	body := fmt.Sprintf(`{
  "version": 1,
  "timestamp": %q,
  "stage": %q,
  "code": %q,
  "exit_code": %d,
  "message": "could not find available listen ip and port",
  "detail": {"attempts": [{"addr": "127.0.0.1:53", "proto": "udp", "os_error": "address already in use"}]}
}
`, stamp, parts[0], parts[1], exit)
	saveResult(home, body)
}

func flood(n int) {
	chunk := []byte(strings.Repeat("\x1b[31mnoise\x1b[0m without newline ", 2048))
	w := bufio.NewWriterSize(os.Stdout, 64<<10)
	for n > 0 {
		k := min(n, len(chunk))
		w.Write(chunk[:k])
		n -= k
	}
	w.Flush()
}

func spawnGrandchild(pidfile string) {
	self, err := os.Executable()
	if err != nil {
		self = os.Args[0]
	}
	cmd := exec.Command(self, "__sleep")
	if cmd.Start() == nil {
		writePidFile(pidfile, cmd.Process.Pid)
	}
}

// writePidFile makes the file appear whole: tests wait for it to exist,
// then signal the tree, which may stop this process at any point.
func writePidFile(path string, pid int) {
	if os.WriteFile(path+".tmp", []byte(strconv.Itoa(pid)), 0o644) == nil {
		os.Rename(path+".tmp", path)
	}
}

func flagValue(args []string, name string) string {
	for i, a := range args {
		if v, ok := strings.CutPrefix(a, name+"="); ok {
			return v
		}
		if a == name && i+1 < len(args) {
			return args[i+1]
		}
	}
	return ""
}

func unescape(s string) string {
	return strings.NewReplacer(`\e`, "\x1b", `\r`, "\r", `\n`, "\n", `\x00`, "\x00", `\xff`, "\xff").Replace(s)
}
