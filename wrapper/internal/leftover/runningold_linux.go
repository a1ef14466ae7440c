package leftover

import (
	"path/filepath"
	"strconv"
)

// RunningOld reports whether a process of our namespaces runs a copy of
// binary that is no longer the file at its path: the old daemon after an
// upgrade replaced the binary, even beside a daemon of the new one.
func RunningOld(procDir, binary string) bool {
	ours, ok := ourNamespaces(procDir)
	target, haveTarget := fileID(binary)
	if !ok || !haveTarget {
		return false
	}
	found := matching(procDir, binary, ours)
	defer release(found)
	for pid := range found {
		if id, ok := fileID(filepath.Join(procDir, strconv.Itoa(pid), "exe")); !ok || id != target {
			return true
		}
	}
	return false
}
