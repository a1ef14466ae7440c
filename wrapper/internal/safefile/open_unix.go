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

// notLink: O_NOFOLLOW already refused a link at open.
func notLink(*os.File, fs.FileInfo, bool) bool { return true }
