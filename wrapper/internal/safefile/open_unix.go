//go:build unix

package safefile

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// open never blocks (O_NONBLOCK: a FIFO without a writer opens at once)
// and, with noLinks, fails on a symbolic link instead of following it.
func open(path string, noLinks bool) (*os.File, error) {
	flags := os.O_RDONLY | syscall.O_NONBLOCK | syscall.O_CLOEXEC
	if noLinks {
		flags |= syscall.O_NOFOLLOW
	}
	f, err := os.OpenFile(path, flags, 0)
	if errors.Is(err, syscall.ELOOP) {
		return nil, ErrNotRegular
	}
	return f, err
}

// openWrite opens for reading and writing, creating the file when
// missing; O_NOFOLLOW refuses a link, O_EXCL anything already there (a
// dangling link included), and a directory cannot be opened for writing.
// It never blocks, as open.
func openWrite(path string, exclusive bool, perm fs.FileMode) (*os.File, error) {
	flags := os.O_RDWR | os.O_CREATE | syscall.O_NOFOLLOW | syscall.O_NONBLOCK | syscall.O_CLOEXEC
	if exclusive {
		flags |= os.O_EXCL
	}
	f, err := os.OpenFile(path, flags, perm)
	if errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.EISDIR) {
		return nil, ErrNotRegular
	}
	return f, err
}

// notLink: O_NOFOLLOW already refused a link at open.
func notLink(*os.File, fs.FileInfo, bool) bool { return true }
