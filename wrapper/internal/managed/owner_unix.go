//go:build unix

package managed

import (
	"io/fs"
	"syscall"
)

func fileOwner(info fs.FileInfo) (uid uint32, known bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return st.Uid, true
}
