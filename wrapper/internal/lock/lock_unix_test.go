//go:build unix

package lock

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/safefile"
)

// A link at the lock's path, to a file or to nowhere, a FIFO and a
// directory there, are refused with a clear error and left alone, by the
// probe as by Acquire; the link's target is neither created nor opened.
func TestAcquireRefusesWhatIsNotARegularFile(t *testing.T) {
	for name, plant := range map[string]func(path, target string) error{
		"link to a file": func(path, target string) error {
			os.WriteFile(target, []byte(testenv.Canary), 0o644)
			return os.Symlink(target, path)
		},
		"dangling link": func(path, target string) error { return os.Symlink(target, path) },
		"fifo":          func(path, _ string) error { return syscall.Mkfifo(path, 0o600) },
		"directory":     func(path, _ string) error { return os.Mkdir(path, 0o700) },
	} {
		t.Run(name, func(t *testing.T) {
			home, target := t.TempDir(), filepath.Join(t.TempDir(), "target")
			path := filepath.Join(home, FileName)
			if err := plant(path, target); err != nil {
				t.Fatal(err)
			}
			before, _ := os.Lstat(path)
			want, _ := os.ReadFile(target)
			if held, err := Held(home); held || !errors.Is(err, safefile.ErrRefused) {
				t.Fatalf("probe: held %v, %v; want a refusal", held, err)
			}
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

// A shared lock held for an instant, as the probe holds it where the OS
// lists no locks, does not make a run answer busy; one held longer than
// Acquire waits does, within that wait.
func TestAcquireWaitsOutAnInstantProbe(t *testing.T) {
	home := t.TempDir()
	l, err := Acquire(home)
	if err != nil {
		t.Fatal(err)
	}
	l.Release()
	probe, err := os.Open(filepath.Join(home, FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer probe.Close()
	fd := int(probe.Fd())
	share := func() {
		if err := unix.Flock(fd, unix.LOCK_SH|unix.LOCK_NB); err != nil {
			t.Fatal(err)
		}
	}

	share()
	unlocked := make(chan struct{})
	time.AfterFunc(busyRetry/5, func() { unix.Flock(fd, unix.LOCK_UN); close(unlocked) })
	l, err = Acquire(home)
	<-unlocked
	if err != nil {
		t.Fatalf("a probe's shared lock made the run busy: %v", err)
	}
	l.Release()

	share()
	began := time.Now()
	if _, err := Acquire(home); !errors.Is(err, ErrBusy) {
		t.Fatalf("a lock held throughout: %v, want busy", err)
	}
	if took := time.Since(began); took < busyRetry {
		t.Errorf("busy after %v, want no sooner than %v", took, busyRetry)
	}
}
