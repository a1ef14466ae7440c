package report

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// replace moves the flushed pending file over the record. Swapping the
// two names keeps the old record's inode alive under the pending name,
// so freeing it is left to the next run, which removes the pending file
// in the background while ctrld runs.
func replace(pending, record string) error {
	err := unix.RenamexNp(pending, record, unix.RENAME_SWAP)
	if err == nil || !swapUnsupported(err) {
		return err
	}
	return os.Rename(pending, record)
}

// swapUnsupported covers a first record (nothing to swap with) and file
// systems without the swap.
func swapUnsupported(err error) bool {
	return errors.Is(err, unix.ENOENT) || errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOTSUP)
}
