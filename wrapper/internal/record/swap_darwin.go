package record

import (
	"errors"

	"golang.org/x/sys/unix"
)

func swapNames(a, b string) error { return unix.RenamexNp(a, b, unix.RENAME_SWAP) }

// swapRefused: a file system without RENAME_SWAP.
func swapRefused(err error) bool { return errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOTSUP) }
