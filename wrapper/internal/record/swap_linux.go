package record

import (
	"errors"

	"golang.org/x/sys/unix"
)

func swapNames(a, b string) error {
	return unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
}

// swapRefused: a file system or kernel without RENAME_EXCHANGE.
func swapRefused(err error) bool { return errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) }
