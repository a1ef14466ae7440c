package lock

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/sys/unix"
)

// procLocks lists every file lock on the machine.
const procLocks = "/proc/locks"

// heldByAnother looks the file up in /proc/locks, so that not even a
// shared lock is taken; without /proc it falls back to a shared probe.
func heldByAnother(f *os.File) (bool, error) {
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil {
		return false, err
	}
	locks, err := os.Open(procLocks)
	if err != nil {
		return probeShared(f)
	}
	defer locks.Close()
	return listsFlock(locks, fileID(st)), nil
}

// fileID is a file as /proc/locks names it: major:minor:inode, the
// device numbers in hex.
func fileID(st unix.Stat_t) string {
	return fmt.Sprintf("%02x:%02x:%d", unix.Major(uint64(st.Dev)), unix.Minor(uint64(st.Dev)), st.Ino)
}

// listsFlock reports whether a held (not a waiting, "->") flock lock on
// the file id appears in /proc/locks text: "1: FLOCK ADVISORY WRITE
// <pid> <id> 0 EOF".
func listsFlock(r io.Reader, id string) bool {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 6 && f[1] == "FLOCK" && f[5] == id {
			return true
		}
	}
	return false
}
