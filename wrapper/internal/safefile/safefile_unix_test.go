//go:build unix

package safefile

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A FIFO with no writer would block a plain open forever; a device could
// stream without end. Both must be refused at once.
func TestReadNeverBlocksOnFIFOOrDevice(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{fifo, "/dev/zero"} {
		for _, noLinks := range []bool{false, true} {
			done := make(chan error, 1)
			go func() {
				_, err := Read(path, Options{MaxSize: 1 << 20, NoLinks: noLinks})
				done <- err
			}()
			select {
			case err := <-done:
				if !errors.Is(err, ErrRefused) {
					t.Fatalf("%s: got %v, want ErrRefused", path, err)
				}
			case <-time.After(5 * time.Second):
				t.Fatalf("%s: Read blocked", path)
			}
		}
	}
}

func TestReadRefusesLinkToFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	syscall.Mkfifo(fifo, 0o600)
	link := filepath.Join(dir, "link")
	if err := syscall.Symlink(fifo, link); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(link, Options{MaxSize: 5, NoLinks: true}); !errors.Is(err, ErrRefused) {
		t.Fatalf("got %v", err)
	}
}
