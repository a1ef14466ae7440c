//go:build unix

package safefile

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// CreatePrivate creates a new file at path that only its owner may read
// (0600). A name already there is removed first, as a name: the file is
// never opened through a link.
func CreatePrivate(path string) (*os.File, error) {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	return os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0o600)
}
