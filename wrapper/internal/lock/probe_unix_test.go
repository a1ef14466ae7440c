//go:build unix

package lock

import (
	"os"
	"path/filepath"
	"testing"
)

func TestSharedProbe(t *testing.T) {
	home := t.TempDir()
	// The lock file must be there before it is opened for the probe.
	l, err := Acquire(home)
	if err != nil {
		t.Fatal(err)
	}
	l.Release()
	f, err := os.Open(filepath.Join(home, FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	checkProbe(t, home, func() (bool, error) { return probeShared(f) })
}
