//go:build !linux

package leftover

// Running is Linux's; elsewhere the service manager owns the daemon.
func Running(procDir, binary string) bool { return false }

// RunningFile is Linux's, like Running.
func RunningFile(procDir, binary string) bool { return false }
