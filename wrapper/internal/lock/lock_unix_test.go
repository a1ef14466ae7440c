//go:build unix

package lock

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/safefile"
)

// A link at the lock's path, to a file or to nowhere, and a FIFO there,
// are refused with a clear error and left alone; the link's target is
// neither created nor opened.
func TestAcquireRefusesWhatIsNotARegularFile(t *testing.T) {
	for name, plant := range map[string]func(path, target string) error{
		"link to a file": func(path, target string) error {
			os.WriteFile(target, []byte(testenv.Canary), 0o644)
			return os.Symlink(target, path)
		},
		"dangling link": func(path, target string) error { return os.Symlink(target, path) },
		"fifo":          func(path, _ string) error { return syscall.Mkfifo(path, 0o600) },
	} {
		t.Run(name, func(t *testing.T) {
			home, target := t.TempDir(), filepath.Join(t.TempDir(), "target")
			path := filepath.Join(home, FileName)
			if err := plant(path, target); err != nil {
				t.Fatal(err)
			}
			before, _ := os.Lstat(path)
			want, _ := os.ReadFile(target)
			l, err := Acquire(home)
			if err == nil {
				l.Release()
				t.Fatal("the lock was taken")
			}
			if !errors.Is(err, safefile.ErrRefused) || errors.Is(err, ErrBusy) {
				t.Fatalf("got %v, want a refusal", err)
			}
			if err := Remove(home); !errors.Is(err, safefile.ErrRefused) {
				t.Fatalf("remove: %v", err)
			}
			if after, _ := os.Lstat(path); !os.SameFile(before, after) {
				t.Fatal("what was planted was replaced")
			}
			if got, _ := os.ReadFile(target); string(got) != string(want) {
				t.Fatalf("the target was written: %q", got)
			}
			if _, err := os.Lstat(target); want == nil && !os.IsNotExist(err) {
				t.Fatal("the link's target was created")
			}
		})
	}
}
