package realctrld

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// reportFile is the report's name in the scenario's folder.
const reportFile = "report.json"

// watched are the host paths a scenario must leave as they were.
var watched = []string{
	"/etc/resolv.conf", "/etc/init.d", "/etc/controld", "/etc/systemd/system",
	"/var/lib/dpkg/status", "/var/lib/dpkg/info", "/var/lib/rpm",
	"/usr/bin/ctrld", "/usr/bin/ctrld-install", "/var/log/ctrld.log", "/var/log/ctrld.err",
	// What a container's systemd or util-linux mount would write into a
	// /run they could reach.
	"/run/mount", "/run/systemd", "/run/dbus", "/run/log",
}

// packageVersion is the version of the packages the scenarios install,
// and upgradeVersion that of the packages they upgrade to; no other tier
// uses them.
const (
	packageVersion = "1.5.0"
	upgradeVersion = "1.5.1"
)

// sharedLogs are append-only logs that other tiers on the machine write
// too (dpkg --root still logs to the host's dpkg.log): only lines about
// this tier's package may not appear in them.
var sharedLogs = []string{"/var/log/dpkg.log"}

// hostState is the host state a scenario must not change.
type hostState struct {
	Files    map[string]string
	RunCtrld []string
	Procs    map[int]string
	LogSizes map[string]int64
}

// snapshotHost records the watched paths (content hashes and modes), the
// ctrld entries of /run and the ctrld processes.
func snapshotHost() hostState {
	h := hostState{Files: map[string]string{}, Procs: hostCtrldProcesses()}
	for _, root := range watched {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				h.Files[p] = "error"
				return nil
			}
			h.Files[p] = describe(p, d)
			return nil
		})
		if _, ok := h.Files[root]; !ok {
			h.Files[root] = "absent"
		}
	}
	h.RunCtrld, _ = filepath.Glob("/run/ctrld*")
	h.LogSizes = map[string]int64{}
	for _, l := range sharedLogs {
		if st, err := os.Stat(l); err == nil {
			h.LogSizes[l] = st.Size()
		}
	}
	return h
}

// ourLines returns the lines appended to a shared log since the snapshot
// that name this tier's package version.
func (h hostState) ourLines(log string) []string {
	f, err := os.Open(log)
	if err != nil {
		return nil
	}
	defer f.Close()
	f.Seek(h.LogSizes[log], 0)
	data, _ := io.ReadAll(io.LimitReader(f, 16<<20))
	var ours []string
	for _, line := range strings.Split(string(data), "\n") {
		for _, v := range []string{packageVersion, upgradeVersion} {
			if strings.Contains(line, "ctrld:amd64 "+v) || strings.Contains(line, "ctrld-"+v) {
				ours = append(ours, line)
				break
			}
		}
	}
	return ours
}

func describe(p string, d fs.DirEntry) string {
	info, err := d.Info()
	if err != nil {
		return "error"
	}
	if !d.Type().IsRegular() {
		link, _ := os.Readlink(p)
		return info.Mode().String() + " " + link
	}
	data, _ := os.ReadFile(p)
	sum := sha256.Sum256(data)
	return info.Mode().String() + " " + hex.EncodeToString(sum[:])
}

// insidePaths are where the scenarios put ctrld and the wrapper; other
// test tiers on the machine run their fake ctrld from temp folders.
var insidePaths = map[string]bool{
	"/usr/bin/ctrld": true, "/usr/bin/ctrld-install": true,
	"/usr/local/bin/ctrld": true, "/usr/local/bin/ctrld-install": true,
}

// hostCtrldProcesses are the host's processes running ctrld or ctrld-install
// from the places the scenarios install them. A process in another pid
// namespace is inside a sandbox (this tier's, or another run's on the
// same machine), not on the host.
func hostCtrldProcesses() map[int]string {
	procs := map[int]string{}
	host := pidNamespace("self")
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pidNamespace(e.Name()) != host {
			continue
		}
		cmdline, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		argv0, _, _ := bytes.Cut(cmdline, []byte{0})
		if insidePaths[string(argv0)] {
			procs[pid] = redact(string(bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '})))
		}
	}
	return procs
}

// pidNamespace is the pid namespace of /proc/<pid>, 0 when unreadable.
func pidNamespace(pid string) uint64 {
	var st syscall.Stat_t
	if err := syscall.Stat("/proc/"+pid+"/ns/pid", &st); err != nil {
		return 0
	}
	return st.Ino
}

// compare lists what differs between two host snapshots.
func (h hostState) compare(after hostState) []string {
	var diffs []string
	for p, v := range after.Files {
		if h.Files[p] != v {
			diffs = append(diffs, fmt.Sprintf("%s: %q -> %q", p, h.Files[p], v))
		}
	}
	for p := range h.Files {
		if _, ok := after.Files[p]; !ok {
			diffs = append(diffs, p+": gone")
		}
	}
	if strings.Join(h.RunCtrld, " ") != strings.Join(after.RunCtrld, " ") {
		diffs = append(diffs, fmt.Sprintf("/run/ctrld*: %v -> %v", h.RunCtrld, after.RunCtrld))
	}
	for pid, cmd := range after.Procs {
		if _, ok := h.Procs[pid]; !ok {
			diffs = append(diffs, fmt.Sprintf("new ctrld process %d: %s", pid, cmd))
		}
	}
	for _, l := range sharedLogs {
		for _, line := range h.ourLines(l) {
			diffs = append(diffs, l+": "+line)
		}
	}
	sort.Strings(diffs)
	return diffs
}

// sandbox is one scenario's run: its host folder and, after run, its
// report.
type sandbox struct {
	Name   string
	Work   string
	Report *report
	// Output is what init and the scenario printed (setup errors).
	Output string
	Took   time.Duration
}

// upperDir is the scenario's overlay upper folder for a system folder:
// every file written there during the scenario.
func (s *sandbox) upperDir() string { return filepath.Join(s.Work, "upper") }

// shareDir is where the host puts what the scenario needs; inside it is
// shareInside.
func (s *sandbox) shareDir() string { return filepath.Join(s.Work, "share") }

// prepareSandbox prepares a scenario's folder.
func prepareSandbox(t *testing.T, name string) *sandbox {
	t.Helper()
	if os.Geteuid() != 0 {
		testenv.Unavailable(t, "the real-ctrld tier needs root for its namespaces")
	}
	testenv.RequireTool(t, "unshare")
	work := t.TempDir()
	s := &sandbox{Name: name, Work: work}
	if err := os.MkdirAll(s.shareDir(), 0o755); err != nil {
		t.Fatal(err)
	}
	return s
}

// run runs the scenario in its namespaces, bounded by limit, and checks
// that the host is as it was before. The namespace and everything in it
// is killed when the scenario ends or the bound passes.
func (s *sandbox) run(t *testing.T, limit time.Duration) *report {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	hostNS, err := hostNamespaces()
	if err != nil {
		t.Fatal(err)
	}
	before := snapshotHost()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, "unshare", "--mount", "--net", "--pid", "--uts", "--ipc",
		"--fork", "--mount-proc", "--kill-child", "--propagation", "private", self)
	cmd.Env = append([]string{envStage + "=" + stageInit, envName + "=" + s.Name, envWork + "=" + s.Work}, baseEnv...)
	for k, v := range hostNS {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.WaitDelay = 5 * time.Second
	var output bytes.Buffer
	cmd.Stdout, cmd.Stderr = &output, &output
	start := time.Now()
	runErr := cmd.Start()
	if runErr == nil {
		held, err := holdChildPidNamespace(cmd.Process.Pid)
		defer held.Close()
		runErr = errors.Join(cmd.Wait(), err)
	}
	s.Took = time.Since(start)
	out := output.Bytes()
	s.Output = string(out)
	s.checkHost(t, before)
	if runErr != nil {
		t.Fatalf("scenario %s: %v (after %s)\n%s", s.Name, runErr, s.Took.Round(time.Second), out)
	}
	data, err := os.ReadFile(filepath.Join(s.Work, reportFile))
	if err != nil {
		t.Fatalf("scenario %s wrote no report: %v\n%s", s.Name, err, out)
	}
	var r report
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	s.Report = &r
	s.checkGone(t)
	if r.Error != "" {
		t.Fatalf("scenario %s: %s", s.Name, r.Error)
	}
	return &r
}

// checkHost fails the test when the host changed.
func (s *sandbox) checkHost(t *testing.T, before hostState) {
	t.Helper()
	if diffs := before.compare(snapshotHost()); len(diffs) > 0 {
		t.Errorf("scenario %s changed the host:\n%s", s.Name, strings.Join(diffs, "\n"))
	}
}

// checkGone fails the test when any process of the scenario's pid
// namespace outlived it.
func (s *sandbox) checkGone(t *testing.T) {
	t.Helper()
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		var st syscall.Stat_t
		if err := syscall.Stat("/proc/"+e.Name()+"/ns/pid", &st); err != nil {
			continue
		}
		if st.Ino == s.Report.PidNamespace {
			cmdline, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
			t.Errorf("process %s of scenario %s outlived it: %q", e.Name(), s.Name, redact(string(cmdline)))
		}
	}
}
