// Package lock keeps two ctrld-install runs from provisioning the same
// ctrld home dir at once.
package lock

import (
	"errors"
	"os"
	"path/filepath"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/safefile"
)

// FileName is the lock file inside the ctrld home dir. It stays behind,
// empty; only the OS lock on it matters.
const FileName = names.LockFile

// ErrBusy means another run holds the lock.
var ErrBusy = errors.New("another ctrld-install run holds the lock")

// Lock is a held lock.
type Lock struct{ f *os.File }

// Acquire takes the lock for home, waiting at most busyRetry while
// another process has it. The OS drops it when the process dies, so a
// crash never leaves the home dir locked. A link or anything but a
// regular file at the lock's path is refused (an error matching
// safefile.ErrRefused), never followed, and left where it is:
// replacing it could hand two runs two different locks.
func Acquire(home string) (*Lock, error) {
	f, err := safefile.OpenOrCreate(filepath.Join(home, FileName), 0o600)
	if err != nil {
		return nil, err
	}
	if err := lockSoon(f); err != nil {
		f.Close()
		return nil, err
	}
	return &Lock{f: f}, nil
}

// Where the OS has no list of file locks to read, Held takes a shared
// lock for an instant; a run that asks in that instant must not answer
// INSTALL_IN_PROGRESS. So a busy lock is asked for again, every
// retryEvery, for busyRetry: far longer than a probe holds it, far
// shorter than a run does.
const (
	busyRetry  = 500 * time.Millisecond
	retryEvery = 10 * time.Millisecond
)

// lockSoon takes the exclusive lock on f, retrying while it is busy for
// at most busyRetry.
func lockSoon(f *os.File) error {
	deadline := time.Now().Add(busyRetry)
	for {
		err := tryLock(f)
		if !errors.Is(err, ErrBusy) || !time.Now().Before(deadline) {
			return err
		}
		time.Sleep(retryEvery)
	}
}

// Release drops the lock.
func (l *Lock) Release() {
	if l != nil && l.f != nil {
		l.f.Close()
		l.f = nil
	}
}

// Remove deletes the lock file and the tree marker, for package removal,
// unless a run holds the lock: then both stay, and it returns ErrBusy.
// The file is deleted while held, so no run can take it in between.
func Remove(home string) error {
	l, err := Acquire(home)
	if err != nil {
		return err
	}
	ClearTree(home)
	path := filepath.Join(home, FileName)
	if os.Remove(path) == nil {
		l.Release()
		return nil
	}
	// Windows does not delete a file that is open.
	l.Release()
	return os.Remove(path)
}
