//go:build unix

package lock

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

func tryLock(f *os.File) error {
	err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
	if errors.Is(err, unix.EWOULDBLOCK) {
		return ErrBusy
	}
	return err
}

const noFollow = unix.O_NOFOLLOW | unix.O_NONBLOCK

// signalReaches reports whether process group id has a member, a zombie
// included.
func signalReaches(id int) bool {
	err := unix.Kill(-id, 0)
	return err == nil || errors.Is(err, unix.EPERM)
}
