package leftover

import (
	"os"
	"path/filepath"
	"strconv"
)

// Running reports whether any process runs binary, a replaced or
// deleted copy of it included. procDir is /proc.
func Running(procDir, binary string) bool {
	return len(matching(procDir, resolved(binary))) > 0
}

// RunningFile reports whether a process runs the file binary names now:
// after an upgrade replaced it, a process of the old one reads as
// deleted and does not count.
func RunningFile(procDir, binary string) bool {
	target := resolved(binary)
	for pid := range matching(procDir, target) {
		if exe, err := os.Readlink(filepath.Join(procDir, strconv.Itoa(pid), "exe")); err == nil && exe == target {
			return true
		}
	}
	return false
}
