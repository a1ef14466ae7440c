//go:build unix

package proc

import (
	"errors"
	"os/exec"
	"syscall"
	"testing"
)

// Once the held process has exited and been reaped, its pid is free for
// another: neither hold signals by it any more.
func TestHeldProcessGoneAfterExit(t *testing.T) {
	for name, hold := range map[string]func(int) (Held, error){"Hold": Hold, "by start time": holdByStart} {
		cmd := exec.Command("sleep", "60")
		if err := cmd.Start(); err != nil {
			t.Skip(err)
		}
		h, err := hold(cmd.Process.Pid)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if h.Exited() {
			t.Errorf("%s: a running process counts as exited", name)
		}
		if err := h.Signal(syscall.SIGKILL); err != nil {
			t.Errorf("%s: signal: %v", name, err)
		}
		cmd.Wait()
		if !h.Exited() {
			t.Errorf("%s: a reaped process counts as running", name)
		}
		if err := h.Signal(syscall.SIGKILL); !errors.Is(err, ErrGone) {
			t.Errorf("%s: signal after exit: %v, want ErrGone", name, err)
		}
		h.Release()
	}
}
