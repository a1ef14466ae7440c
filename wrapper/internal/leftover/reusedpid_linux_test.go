package leftover

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// helperEnv runs a test of this file as the first process of a new pid
// namespace, where the test may choose the next pid.
const helperEnv = "LEFTOVER_TEST_IN_PID_NAMESPACE"

// nsLastPid is the last pid handed out in the reader's pid namespace;
// writing n makes n+1 the next.
const nsLastPid = "/proc/sys/kernel/ns_last_pid"

// The daemon exits on SIGTERM while its child ignores it, so the grace
// runs its full length. A process then started with the daemon's pid
// must not get the hard kill meant for the daemon.
func TestStopDaemonsNeverSignalsAReusedPid(t *testing.T) {
	unshare := needNamespaces(t)
	cmd := exec.Command(unshare, "--pid", "--fork", "--mount-proc", os.Args[0],
		"-test.run=^TestInPidNamespaceReusedPid$", "-test.v")
	cmd.Env = append(os.Environ(), helperEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("in a new pid namespace: %v\n%s", err, out)
	}
}

func TestInPidNamespaceReusedPid(t *testing.T) {
	if os.Getenv(helperEnv) == "" {
		t.Skip("run by TestStopDaemonsNeverSignalsAReusedPid")
	}
	daemon := t.TempDir() + "/ctrld"
	copyOfShell(t, daemon)
	cmd := exec.Command(daemon, "-c", "(trap '' TERM; exec sleep 60) & wait")
	// Not a group leader: a pid that names a live group is never reused.
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	reaped := make(chan struct{})
	go func() { cmd.Wait(); close(reaped) }()
	// The child ignores SIGTERM once it runs sleep.
	childOf(t, cmd.Process.Pid, sleepBinary(t))
	stopped := make(chan int)
	go func() { stopped <- StopDaemons("/proc", daemon, 3*time.Second) }()
	select {
	case <-reaped:
	case <-time.After(2 * time.Second):
		t.Fatal("the daemon did not exit on SIGTERM")
	}
	bystander := startWithPid(t, cmd.Process.Pid, "sleep", "60")
	if n := <-stopped; n != 2 {
		t.Errorf("signalled %d processes, want the daemon and its child", n)
	}
	// A kill takes effect a moment after it is sent.
	select {
	case <-bystander:
		t.Fatal("the process that reused the daemon's pid was killed")
	case <-time.After(time.Second):
	}
}

// sleepBinary is the file sleep runs, as /proc/<pid>/exe shows it.
func sleepBinary(t *testing.T) string {
	t.Helper()
	path, err := filepath.EvalSymlinks(testenv.RequireTool(t, "sleep"))
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// startWithPid starts a command that gets pid, and returns a channel
// closed when it ends. Other threads of this process may take a pid
// first, so it tries again a few times.
func startWithPid(t *testing.T, pid int, name string, args ...string) <-chan struct{} {
	t.Helper()
	for try := 0; try < 20; try++ {
		if err := os.WriteFile(nsLastPid, []byte(strconv.Itoa(pid-1)), 0); err != nil {
			t.Fatal(err)
		}
		c := exec.Command(name, args...)
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		if c.Process.Pid == pid {
			ended := make(chan struct{})
			go func() { c.Wait(); close(ended) }()
			t.Cleanup(func() { c.Process.Kill(); <-ended })
			return ended
		}
		c.Process.Kill()
		c.Wait()
	}
	t.Fatalf("no process got pid %d", pid)
	return nil
}
