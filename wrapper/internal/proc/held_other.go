//go:build unix && !linux

package proc

// Hold holds process pid by its start time, read again before every
// signal: macOS has no handle on a process that a signal goes through.
func Hold(pid int) (Held, error) { return holdByStart(pid) }
