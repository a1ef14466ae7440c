//go:build unix

package proc

import (
	"os"
	"syscall"
)

// FileOf is the file at path, following links.
func FileOf(path string) (FileID, error) {
	info, err := os.Stat(path)
	if err != nil {
		return FileID{}, err
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return FileID{}, syscall.EINVAL
	}
	return FileID{Dev: uint64(st.Dev), Ino: st.Ino}, nil
}
