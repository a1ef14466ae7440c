package leftover

import (
	"path/filepath"
	"strconv"
)

// Running reports whether any process of our namespaces runs binary, a
// replaced or deleted copy of it included. procDir is /proc.
func Running(procDir, binary string) bool {
	ours, ok := ourNamespaces(procDir)
	return ok && len(matching(procDir, binary, ours)) > 0
}

// RunningFile reports whether a process runs the file binary names now:
// after an upgrade replaced it, a process of the old one runs another
// file and does not count.
func RunningFile(procDir, binary string) bool {
	ours, ok := ourNamespaces(procDir)
	target, haveTarget := fileID(binary)
	if !ok || !haveTarget {
		return false
	}
	for pid := range matching(procDir, binary, ours) {
		if id, ok := fileID(filepath.Join(procDir, strconv.Itoa(pid), "exe")); ok && id == target {
			return true
		}
	}
	return false
}
