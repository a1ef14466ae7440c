//go:build unix

package lock

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

func TestTreeAliveWhileTheGroupLives(t *testing.T) {
	home := t.TempDir()
	cmd := exec.Command("sleep", "30")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	if err := MarkTree(home, cmd.Process.Pid); err != nil {
		t.Fatal(err)
	}
	if !TreeAlive(home) {
		t.Fatal("a live group was not seen")
	}
	cmd.Process.Kill()
	cmd.Wait()
	if TreeAlive(home) {
		t.Fatal("a dead group was seen as alive")
	}
	if _, err := os.Stat(filepath.Join(home, TreeFileName)); !os.IsNotExist(err) {
		t.Fatal("the stale marker was kept")
	}
}

func TestTreeMarkerThatIsNotAnIdIsIgnored(t *testing.T) {
	for _, body := range []string{"", "garbage", "1", "-5", "99999999999999999999999999"} {
		home := t.TempDir()
		os.WriteFile(filepath.Join(home, TreeFileName), []byte(body), 0o600)
		if TreeAlive(home) {
			t.Errorf("marker %q counted as a live tree", body)
		}
	}
}
