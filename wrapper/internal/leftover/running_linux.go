package leftover

import (
	"path/filepath"
	"strconv"
)

// Running reports whether any process of our namespaces runs binary, a
// replaced or deleted copy of it included. procDir is /proc.
func Running(procDir, binary string) bool {
	ours, ok := ourNamespaces(procDir)
	if !ok {
		return false
	}
	found := matching(procDir, binary, ours)
	defer release(found)
	return len(found) > 0
}

// RunningFile reports whether a process runs the file binary names now:
// after an upgrade replaced it, a process of the old one runs another
// file and does not count.
func RunningFile(procDir, binary string) bool {
	return anyRuns(procDir, binary, func(sameFile bool) bool { return sameFile })
}

// anyRuns reports whether a process of our namespaces that runs binary
// (by name) passes want, told whether it runs the file at binary's path
// now.
func anyRuns(procDir, binary string, want func(sameFile bool) bool) bool {
	ours, ok := ourNamespaces(procDir)
	target, haveTarget := fileID(binary)
	if !ok || !haveTarget {
		return false
	}
	found := matching(procDir, binary, ours)
	defer release(found)
	for pid := range found {
		id, ok := fileID(filepath.Join(procDir, strconv.Itoa(pid), "exe"))
		if want(ok && id == target) {
			return true
		}
	}
	return false
}
