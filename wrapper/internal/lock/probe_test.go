package lock

import (
	"os"
	"path/filepath"
	"testing"
)

func TestHeldCreatesNothing(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	if held, err := Held(home); held || err != nil {
		t.Fatalf("no home dir: held %v, %v", held, err)
	}
	if _, err := os.Stat(home); !os.IsNotExist(err) {
		t.Fatalf("Held made the home dir: %v", err)
	}
}

func TestHeldSeesAHeldLockAndKeepsNone(t *testing.T) {
	home := t.TempDir()
	checkProbe(t, home, func() (bool, error) { return Held(home) })
}

// checkProbe holds the lock of home, asks probe, releases, asks again,
// and checks that the probe kept no lock a run could trip on.
func checkProbe(t *testing.T, home string, probe func() (bool, error)) {
	t.Helper()
	l, err := Acquire(home)
	if err != nil {
		t.Fatal(err)
	}
	if held, err := probe(); !held || err != nil {
		t.Fatalf("while held: held %v, %v", held, err)
	}
	l.Release()
	if held, err := probe(); held || err != nil {
		t.Fatalf("after release: held %v, %v", held, err)
	}
	again, err := Acquire(home)
	if err != nil {
		t.Fatalf("acquire after the probe: %v", err)
	}
	again.Release()
}
