package safefile

import (
	"io/fs"
	"os"
)

// Finish writes data to f, sets its mode, flushes it to disk and closes
// it: a file written this way survives a power cut once renamed into place.
// f is closed whatever happens.
func Finish(f *os.File, data []byte, perm fs.FileMode) error {
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(perm); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
