//go:build unix && !linux

package lock

import "os"

// heldByAnother takes a shared lock for an instant: the OS has no list of
// flock locks to read instead.
func heldByAnother(f *os.File) (bool, error) { return probeShared(f) }
