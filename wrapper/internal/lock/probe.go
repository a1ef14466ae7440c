package lock

import (
	"errors"
	"io/fs"
	"path/filepath"

	"github.com/ctrld-install/ctrld-install/wrapper/internal/safefile"
)

// Held reports whether a run holds the lock for home, for a check that
// must change nothing: it neither creates the lock file nor keeps a lock.
// A missing lock file is a free lock.
func Held(home string) (bool, error) {
	f, err := safefile.OpenExisting(filepath.Join(home, FileName))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	return heldByAnother(f)
}
