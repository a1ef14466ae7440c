package lock

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestSecondAcquireIsBusy(t *testing.T) {
	home := t.TempDir()
	first, err := Acquire(home)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Acquire(home); !errors.Is(err, ErrBusy) {
		t.Fatalf("second acquire: %v", err)
	}
	first.Release()
	again, err := Acquire(home)
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	again.Release()
}

// The lock must also hold across processes, which is the real case.
func TestLockAcrossProcesses(t *testing.T) {
	if os.Getenv("LOCK_HELPER_HOME") != "" {
		_, err := Acquire(os.Getenv("LOCK_HELPER_HOME"))
		if errors.Is(err, ErrBusy) {
			os.Exit(7)
		}
		os.Exit(0)
	}
	home := t.TempDir()
	l, err := Acquire(home)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	cmd := exec.Command(os.Args[0], "-test.run=TestLockAcrossProcesses")
	cmd.Env = append(os.Environ(), "LOCK_HELPER_HOME="+home)
	err = cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 7 {
		t.Fatalf("helper process was not refused: %v", err)
	}
}

func TestRemoveLeavesAHeldLock(t *testing.T) {
	home := t.TempDir()
	held, err := Acquire(home)
	if err != nil {
		t.Fatal(err)
	}
	if err := Remove(home); !errors.Is(err, ErrBusy) {
		t.Fatalf("remove while held: %v", err)
	}
	if _, err := os.Stat(filepath.Join(home, FileName)); err != nil {
		t.Fatalf("a held lock was deleted: %v", err)
	}
	held.Release()
	if err := Remove(home); err != nil {
		t.Fatalf("remove after release: %v", err)
	}
	if _, err := os.Stat(filepath.Join(home, FileName)); !os.IsNotExist(err) {
		t.Fatalf("lock file left behind: %v", err)
	}
}
