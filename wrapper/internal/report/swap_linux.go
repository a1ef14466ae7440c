package report

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// replace moves the flushed pending file over the record. Exchanging the
// two names keeps the old record's inode alive under the pending name,
// so freeing it is left to the next run, which removes the pending file
// in the background while ctrld runs. A plain rename would free it here,
// on the path every successful install waits on.
func replace(pending, record string) error {
	err := unix.Renameat2(unix.AT_FDCWD, pending, unix.AT_FDCWD, record, unix.RENAME_EXCHANGE)
	if err == nil || !swapUnsupported(err) {
		return err
	}
	return os.Rename(pending, record)
}

// swapUnsupported covers a first record (nothing to exchange with) and
// file systems or kernels without the exchange.
func swapUnsupported(err error) bool {
	return errors.Is(err, unix.ENOENT) || errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS)
}
