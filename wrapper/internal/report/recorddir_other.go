//go:build !windows

package report

import "os"

// On macOS and Linux the record lives in the ctrld home dir, which ctrld
// and the packages make; start has nothing to check before it runs.

// CheckRecordDir makes the record folder or refuses the one there.
func CheckRecordDir(string) error { return nil }

// PrepareRecordDir makes the record folder, or accepts the one there,
// before anyone writes in it.
func PrepareRecordDir(dir string) error { return prepareRecordDir(dir) }

// The record folder is the ctrld home dir: private, as the packages ship
// it.
func prepareRecordDir(dir string) error { return os.MkdirAll(dir, 0o700) }

func checkRecordDir(string) error { return nil }
