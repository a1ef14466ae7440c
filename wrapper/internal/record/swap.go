//go:build linux || darwin

package record

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// replace moves the flushed pending file over the record. Swapping the
// two names keeps the old record's inode alive under the pending name,
// so freeing it is left to the next run, which removes the pending file
// in the background while ctrld runs. A plain rename would free it here,
// on the path every successful install waits on. A first record (nothing
// to swap with) and a file system without the swap get the rename.
func replace(pending, record string) error {
	err := swapNames(pending, record)
	if err == nil || !errors.Is(err, unix.ENOENT) && !swapRefused(err) {
		return err
	}
	return os.Rename(pending, record)
}
