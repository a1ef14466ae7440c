package realctrld

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// box is a scenario's handle on its namespace.
type box struct {
	report report
	mu     sync.Mutex
	syslog *syslogReceiver
	api    *fakeAPI
}

// scenario runs inside a namespace. It does things and records them; the
// host judges the report.
type scenario func(b *box)

// shareInside is the folder, inside, holding what the host gave the scenario
// (binaries, packages).
const shareInside = insideDir + "/share"

// baseEnv is every command's environment unless a step adds to it.
var baseEnv = []string{
	"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
	"LC_ALL=C", "HOME=/root", "TERM=dumb", "DEBIAN_FRONTEND=noninteractive",
}

// maxOutput bounds what a step's output keeps.
const maxOutput = 1 << 20

// runInside is the namespace's second process: it runs the scenario and
// writes the report. With ownSyslog it receives syslog itself; under
// systemd the journal keeps it.
func runInside(scenarios map[string]scenario, ownSyslog bool) int {
	if err := mustBeIsolated(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 3
	}
	scenario, ok := scenarios[os.Getenv(envName)]
	if !ok {
		fmt.Fprintln(os.Stderr, "unknown scenario", os.Getenv(envName))
		return 3
	}
	b := &box{}
	b.report.PidNamespace, _ = namespaceInode("pid")
	if ownSyslog {
		recv, err := listenSyslog("/dev/log")
		if err != nil {
			fmt.Fprintln(os.Stderr, "syslog:", err)
			return 3
		}
		b.syslog = recv
	}
	func() {
		defer func() {
			if r := recover(); r != nil {
				b.report.Error = fmt.Sprint(r)
			}
		}()
		scenario(b)
	}()
	if b.syslog != nil {
		time.Sleep(100 * time.Millisecond) // let the last datagrams arrive
		b.report.Syslog = b.syslog.messages()
	}
	b.report.Processes = processes()
	if b.api != nil {
		b.report.API = b.api.recorded()
	}
	data, err := json.MarshalIndent(&b.report, "", " ")
	if err != nil {
		return 3
	}
	if err := os.WriteFile(filepath.Join(insideDir, reportName()), data, 0o600); err != nil {
		return 3
	}
	return 0
}

// fail stops the scenario with a reason the host reports.
func (b *box) fail(format string, args ...any) {
	panic(fmt.Sprintf(format, args...))
}

// run runs one command with baseEnv plus env, bounded by timeout; the
// whole process group is killed when it outlives the bound.
func (b *box) run(name string, timeout time.Duration, env []string, argv ...string) stepResult {
	return b.runStep(name, timeout, env, false, argv...)
}

// runSecret is run for a command given the token on purpose (ctrld
// itself): its output is kept only for redaction.
func (b *box) runSecret(name string, timeout time.Duration, env []string, argv ...string) stepResult {
	return b.runStep(name, timeout, env, true, argv...)
}

func (b *box) runStep(name string, timeout time.Duration, env []string, secret bool, argv ...string) stepResult {
	if err := mustBeIsolated(); err != nil {
		b.fail("%v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(append([]string{}, baseEnv...), env...)
	cmd.Dir = "/"
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// A daemon started by the step may keep its output open.
	cmd.WaitDelay = 2 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &capped{buf: &stdout}
	cmd.Stderr = &capped{buf: &stderr}
	start := time.Now()
	step := stepResult{Name: name, Argv: argv, Secret: secret}
	if err := cmd.Start(); err != nil {
		step.Exit, step.Stderr = -1, err.Error()
		b.add(step)
		return step
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		step.TimedOut = true
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		err = <-done
	}
	step.Duration = time.Since(start)
	step.Exit = cmd.ProcessState.ExitCode()
	if err != nil && cmd.ProcessState == nil {
		step.Exit = -1
	}
	step.Stdout, step.Stderr = stdout.String(), stderr.String()
	b.add(step)
	return step
}

func (b *box) add(s stepResult) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.report.Steps = append(b.report.Steps, s)
}

// must runs a setup command that has to succeed.
func (b *box) must(argv ...string) {
	if err := mustBeIsolated(); err != nil {
		b.fail("%v", err)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = baseEnv
	if out, err := cmd.CombinedOutput(); err != nil {
		b.fail("%s: %v: %s", strings.Join(argv, " "), err, out)
	}
}

// snapshot records the state of paths; a pattern holding * is globbed.
func (b *box) snapshot(name string, paths ...string) snapshot {
	snap := snapshot{Name: name}
	for _, p := range paths {
		matches := []string{p}
		if strings.ContainsAny(p, "*?[") {
			matches, _ = filepath.Glob(p)
			if len(matches) == 0 {
				snap.Files = append(snap.Files, pathState{Path: p})
			}
		}
		for _, m := range matches {
			snap.Files = append(snap.Files, fileState(m))
		}
	}
	b.report.Snapshots = append(b.report.Snapshots, snap)
	return snap
}

func fileState(path string) pathState {
	st, err := os.Lstat(path)
	if err != nil {
		return pathState{Path: path}
	}
	f := pathState{Path: path, Exists: true, Mode: uint32(st.Mode())}
	switch {
	case st.Mode()&os.ModeSymlink != 0:
		f.Link, _ = os.Readlink(path)
	case st.Mode().IsRegular() && st.Size() <= 64<<10:
		data, _ := os.ReadFile(path)
		f.Content = string(data)
	}
	return f
}

// write puts a file in place (inside the overlays).
func (b *box) write(path string, mode os.FileMode, content string) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		b.fail("%v", err)
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		b.fail("%v", err)
	}
	os.Chmod(path, mode)
}

// remove deletes a path.
func (b *box) remove(path string) { os.RemoveAll(path) }

// recordProcesses keeps the processes running now under a name.
func (b *box) recordProcesses(name string) []process {
	procs := processes()
	if b.report.ProcessSnapshots == nil {
		b.report.ProcessSnapshots = map[string][]process{}
	}
	b.report.ProcessSnapshots[name] = procs
	return procs
}

// pids lists the processes whose argv[0] ends in name.
func (b *box) pids(name string) []int {
	var pids []int
	for _, p := range processes() {
		if len(p.Argv) > 0 && filepath.Base(p.Argv[0]) == name {
			pids = append(pids, p.Pid)
		}
	}
	return pids
}

// processes lists what runs in the namespace now, PID 1 and this
// scenario's own process left out.
func processes() []process {
	entries, _ := os.ReadDir("/proc")
	self := os.Getpid()
	var out []process
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == 1 || pid == self {
			continue
		}
		stat, _ := os.ReadFile("/proc/" + e.Name() + "/stat")
		if i := bytes.LastIndexByte(stat, ')'); i > 0 && bytes.HasPrefix(bytes.TrimSpace(stat[i+1:]), []byte("Z")) {
			continue
		}
		cmdline, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		environ, _ := os.ReadFile("/proc/" + e.Name() + "/environ")
		out = append(out, process{Pid: pid, Argv: splitNUL(cmdline), Environ: splitNUL(environ)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Pid < out[j].Pid })
	return out
}

func splitNUL(b []byte) []string {
	b = bytes.TrimRight(b, "\x00")
	if len(b) == 0 {
		return nil
	}
	return strings.Split(string(b), "\x00")
}

// capped keeps the first maxOutput bytes and drops the rest.
type capped struct{ buf *bytes.Buffer }

func (c *capped) Write(p []byte) (int, error) {
	if room := maxOutput - c.buf.Len(); room > 0 {
		c.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

var _ io.Writer = (*capped)(nil)
