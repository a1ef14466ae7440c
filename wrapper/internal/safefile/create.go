package safefile

import (
	"io/fs"
	"os"
)

// OpenOrCreate opens the regular file at path for reading and writing,
// creating it with perm when it is missing. It never opens or creates
// through a symbolic link (a reparse point on Windows): a link at path is
// refused with ErrNotRegular, and so is anything else that is not a
// regular file.
func OpenOrCreate(path string, perm fs.FileMode) (*os.File, error) {
	return openWritable(path, false, perm)
}

// CreateNew creates a regular file at path with perm, and fails when
// anything, a link included, is already there.
func CreateNew(path string, perm fs.FileMode) (*os.File, error) {
	return openWritable(path, true, perm)
}

func openWritable(path string, exclusive bool, perm fs.FileMode) (*os.File, error) {
	f, err := openWrite(path, exclusive, perm)
	return regularOnly(path, f, err)
}
