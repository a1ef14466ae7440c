//go:build unix

package result

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func TestReadNeverBlocksOnAFIFO(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, FileName), 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := Read(dir, time.Now()); done <- err }()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("trusted a FIFO")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Read blocked on a FIFO")
	}
}
