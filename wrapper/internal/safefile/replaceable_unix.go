//go:build unix

package safefile

import (
	"os"
	"path/filepath"
	"syscall"
)

// Replaceable checks the file at path on the real file system, trusting
// root and the account this process runs as (which could replace the
// file itself anyway).
func Replaceable(path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	self := uint32(os.Geteuid())
	return CheckReplaceable(osTree{}, abs, func(uid uint32) bool { return uid == 0 || uid == self })
}

type osTree struct{}

func (osTree) Lstat(path string) (Node, error) {
	info, err := os.Lstat(path)
	if err != nil {
		return Node{}, err
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return Node{}, syscall.EINVAL
	}
	return Node{Mode: info.Mode(), UID: st.Uid}, nil
}

func (osTree) Readlink(path string) (string, error) { return os.Readlink(path) }
