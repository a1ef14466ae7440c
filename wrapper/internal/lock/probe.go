package lock

import (
	"errors"
	"io/fs"
	"path/filepath"

	"github.com/ctrld-install/ctrld-install/wrapper/internal/safefile"
)

// Held reports whether a run holds the lock for home, for a check that
// must change nothing: it neither creates the lock file nor keeps a lock.
// A missing lock file is a free lock. What Acquire refuses (a link, a
// FIFO, a directory, anything but a regular file) is refused here too,
// with an error matching safefile.ErrRefused.
func Held(home string) (bool, error) {
	f, err := safefile.OpenRegular(filepath.Join(home, FileName))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	return heldByAnother(f)
}
