//go:build unix

package safefile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// TrustedDir returns nil when the directory at path is owned by root or
// by the account this process runs as, and not group- or world-writable.
// It opens path without following a link and judges what it opened, so
// a link at path is refused whatever it points to. Errors other than a
// refusal (a missing path above all) come as the OS gave them.
func TrustedDir(path string) error {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) {
		return fmt.Errorf("%w: %s is a link or not a directory", ErrUntrustedDir, path)
	}
	if err != nil {
		return &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return &fs.PathError{Op: "fstat", Path: path, Err: err}
	}
	if self := uint32(os.Geteuid()); st.Uid != 0 && st.Uid != self {
		return fmt.Errorf("%w: %s is owned by uid %d", ErrUntrustedDir, path, st.Uid)
	}
	if st.Mode&0o022 != 0 {
		return fmt.Errorf("%w: %s is group- or world-writable", ErrUntrustedDir, path)
	}
	return nil
}
