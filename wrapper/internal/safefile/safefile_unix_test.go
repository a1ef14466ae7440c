//go:build unix

package safefile

import (
	"errors"
	"io/fs"
	"os"
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

// Neither opening nor creating goes through a link, dangling or not, and
// anything already at the path stops CreateNew.
func TestOpenOrCreateAndCreateNewNeverFollowALink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	os.WriteFile(target, []byte("kept"), 0o644)
	link, dangling := filepath.Join(dir, "link"), filepath.Join(dir, "dangling")
	os.Symlink(target, link)
	os.Symlink(filepath.Join(dir, "nowhere"), dangling)
	for _, open := range []func(string, fs.FileMode) (*os.File, error){OpenOrCreate, CreateNew} {
		for _, path := range []string{link, dangling} {
			if f, err := open(path, 0o600); err == nil {
				f.Close()
				t.Fatalf("%s opened", path)
			}
		}
	}
	if _, err := OpenOrCreate(link, 0o600); !errors.Is(err, ErrRefused) {
		t.Fatalf("link: %v, want a refusal", err)
	}
	if data, _ := os.ReadFile(target); string(data) != "kept" {
		t.Fatalf("target written: %q", data)
	}
	if _, err := os.Lstat(filepath.Join(dir, "nowhere")); !os.IsNotExist(err) {
		t.Fatal("the dangling link's target was created")
	}
	fresh := filepath.Join(dir, "fresh")
	f, err := CreateNew(fresh, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if info, _ := os.Stat(fresh); info.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", info.Mode())
	}
	if _, err := CreateNew(fresh, 0o600); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("second CreateNew: %v", err)
	}
	f, err = OpenOrCreate(fresh, 0o600)
	if err != nil {
		t.Fatalf("OpenOrCreate of a regular file: %v", err)
	}
	f.Close()
}
