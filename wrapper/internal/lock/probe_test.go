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
	l, err := Acquire(home)
	if err != nil {
		t.Fatal(err)
	}
	if held, err := Held(home); !held || err != nil {
		t.Fatalf("while held: held %v, %v", held, err)
	}
	l.Release()
	if held, err := Held(home); held || err != nil {
		t.Fatalf("after release: held %v, %v", held, err)
	}
	// The probe must leave no lock behind for a run to trip on.
	again, err := Acquire(home)
	if err != nil {
		t.Fatalf("acquire after the probe: %v", err)
	}
	again.Release()
}
