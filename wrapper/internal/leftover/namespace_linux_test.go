package leftover

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// waiting is the shell a stand-in daemon runs: it stays the shell, with
// a child of its own.
const waiting = "sleep 60 & wait"

// copyOfShell writes a copy of sh at path: a file of its own (its own
// inode) that runs like sh.
func copyOfShell(t *testing.T, path string) {
	t.Helper()
	sh := testenv.RequireTool(t, "sh")
	data, err := os.ReadFile(sh)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o755); err != nil {
		t.Fatal(err)
	}
}

// startGroup starts cmd in a process group of its own, killed at the end.
func startGroup(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
	})
}

// eventually waits until find finds a process, and returns it.
func eventually(t *testing.T, what string, find func() (int, bool)) int {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if pid, ok := find(); ok {
			return pid
		}
	}
	t.Fatalf("no process %s", what)
	return 0
}

func exeOf(pid int) string {
	link, _ := os.Readlink(filepath.Join("/proc", strconv.Itoa(pid), "exe"))
	return link
}

// runs waits until pid shows exe as its executable.
func runs(t *testing.T, pid int, exe string) {
	t.Helper()
	eventually(t, "runs "+exe, func() (int, bool) { return pid, exeOf(pid) == exe })
}

// childOf waits for a child of ppid running exe (any, when exe is "").
func childOf(t *testing.T, ppid int, exe string) int {
	t.Helper()
	return eventually(t, "is a child of "+strconv.Itoa(ppid), func() (int, bool) {
		for _, p := range pids("/proc") {
			if parent, _ := parentOf("/proc", p); parent == ppid && (exe == "" || exeOf(p) == exe) {
				return p, true
			}
		}
		return 0, false
	})
}

func needNamespaces(t *testing.T) string {
	t.Helper()
	testenv.RequireRoot(t, "creating namespaces with unshare")
	return testenv.RequireTool(t, "unshare")
}

// In another mount namespace, a different file is mounted at the very
// path we remove: the path matches, the file does not.
func TestStopDaemonsLeavesACopyInAnotherMountNamespace(t *testing.T) {
	unshare := needNamespaces(t)
	dir := t.TempDir()
	daemon, theirs := filepath.Join(dir, "ctrld"), filepath.Join(dir, "container-ctrld")
	copyOfShell(t, daemon)
	copyOfShell(t, theirs)
	cmd := exec.Command(unshare, "--mount", "--propagation", "private", "sh", "-c",
		`mount --bind "$1" "$2" && exec "$2" -c "$3"`, "sh", theirs, daemon, waiting)
	startGroup(t, cmd)
	runs(t, cmd.Process.Pid, daemon)
	container := cmd.Process.Pid
	if n := StopDaemons("/proc", daemon, 500*time.Millisecond); n != 0 {
		t.Errorf("signalled %d processes, want none", n)
	}
	if !testenv.ProcessAlive(container) {
		t.Fatal("the other mount namespace's ctrld was stopped")
	}
}

// Another pid namespace runs our very file: a container sharing the
// host's binary is still not ours to stop.
func TestStopDaemonsLeavesAnotherPidNamespace(t *testing.T) {
	unshare := needNamespaces(t)
	daemon := filepath.Join(t.TempDir(), "ctrld")
	copyOfShell(t, daemon)
	cmd := exec.Command(unshare, "--pid", "--fork", daemon, "-c", waiting)
	startGroup(t, cmd)
	contained := childOf(t, cmd.Process.Pid, daemon)
	if n := StopDaemons("/proc", daemon, 500*time.Millisecond); n != 0 {
		t.Errorf("signalled %d processes, want none", n)
	}
	if !testenv.ProcessAlive(contained) {
		t.Fatal("the other pid namespace's ctrld was stopped")
	}
}

// The file, not its name: a process started through a hard link runs the
// binary we remove.
func TestStopDaemonsStopsTheFileUnderAnotherName(t *testing.T) {
	dir := t.TempDir()
	daemon, alias := filepath.Join(dir, "ctrld"), filepath.Join(dir, "alias")
	copyOfShell(t, daemon)
	if err := os.Link(daemon, alias); err != nil {
		t.Skip(err)
	}
	cmd := exec.Command(alias, "-c", waiting)
	startGroup(t, cmd)
	runs(t, cmd.Process.Pid, alias)
	childOf(t, cmd.Process.Pid, "")
	if n := StopDaemons("/proc", daemon, 500*time.Millisecond); n != 2 {
		t.Errorf("signalled %d processes, want the daemon and its child", n)
	}
}

// A daemon whose binary was replaced since it started (an upgrade's new
// file renamed over it) runs the old, deleted file: in our own namespaces
// that is still the ctrld we remove.
func TestStopDaemonsStopsADaemonOfAReplacedBinary(t *testing.T) {
	dir := t.TempDir()
	daemon, next := filepath.Join(dir, "ctrld"), filepath.Join(dir, "ctrld.new")
	copyOfShell(t, daemon)
	cmd := exec.Command(daemon, "-c", waiting)
	startGroup(t, cmd)
	runs(t, cmd.Process.Pid, daemon)
	childOf(t, cmd.Process.Pid, "")
	copyOfShell(t, next)
	if err := os.Rename(next, daemon); err != nil {
		t.Fatal(err)
	}
	if n := StopDaemons("/proc", daemon, 500*time.Millisecond); n != 2 {
		t.Errorf("signalled %d processes, want the old daemon and its child", n)
	}
}
