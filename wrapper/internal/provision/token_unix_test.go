//go:build unix

package provision

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A FIFO nobody writes to would hang a plain read forever.
func TestReadTokenFileRefusesAFIFOAtOnce(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "token")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := readTokenFile(fifo); done <- err }()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("read a token from a FIFO")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("readTokenFile blocked on a FIFO")
	}
}
