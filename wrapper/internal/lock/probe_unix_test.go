//go:build unix

package lock

import (
	"os"
	"path/filepath"
	"testing"
)

func TestSharedProbe(t *testing.T) {
	home := t.TempDir()
	l, err := Acquire(home)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(home, FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if held, err := probeShared(f); !held || err != nil {
		t.Fatalf("while held: held %v, %v", held, err)
	}
	l.Release()
	if held, err := probeShared(f); held || err != nil {
		t.Fatalf("after release: held %v, %v", held, err)
	}
	again, err := Acquire(home)
	if err != nil {
		t.Fatalf("acquire after the probe: %v", err)
	}
	again.Release()
}
