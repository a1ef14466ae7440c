package leftover

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// A copy of sleep stands in for the daemon, with a child of its own (the
// shell it runs), and one started by a deleted binary.
func TestStopDaemonsKillsTheTree(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	daemon := filepath.Join(dir, "ctrld")
	data, err := os.ReadFile(sh)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(daemon, data, 0o755)
	cmd := exec.Command(daemon, "-c", "trap '' TERM; sleep 60 & wait")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	time.Sleep(200 * time.Millisecond)
	bystander := exec.Command("sleep", "60")
	bystander.Start()
	defer bystander.Process.Kill()
	if n := StopDaemons("/proc", daemon, 500*time.Millisecond); n != 2 {
		t.Errorf("signalled %d processes, want the daemon and its child", n)
	}
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the daemon ignoring SIGTERM still runs")
	}
	if !testenv.ProcessAlive(bystander.Process.Pid) {
		t.Fatal("an unrelated process was stopped")
	}
}
