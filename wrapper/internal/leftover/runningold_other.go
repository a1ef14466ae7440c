//go:build !linux

package leftover

// RunningOld is Linux's, like Running.
func RunningOld(procDir, binary string) bool { return false }
