package leftover

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// A daemon of the old binary still runs after an upgrade replaced the
// file: it is running, but not the file the binary names now.
func TestRunningFileTellsTheReplacedBinary(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	daemon := filepath.Join(dir, "ctrld")
	data, _ := os.ReadFile(sh)
	os.WriteFile(daemon, data, 0o755)
	if Running("/proc", daemon) || RunningFile("/proc", daemon) {
		t.Fatal("nothing runs yet")
	}
	cmd := exec.Command(daemon, "-c", "sleep 60")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	time.Sleep(200 * time.Millisecond)
	if !Running("/proc", daemon) || !RunningFile("/proc", daemon) {
		t.Fatal("the daemon of the binary is not seen")
	}
	os.WriteFile(daemon+".new", data, 0o755)
	os.Rename(daemon+".new", daemon)
	if !Running("/proc", daemon) || RunningFile("/proc", daemon) {
		t.Fatalf("after the upgrade: running %v, running the new file %v", Running("/proc", daemon), RunningFile("/proc", daemon))
	}
}
