//go:build unix

package report

import (
	"path/filepath"
	"testing"
)

// newRecordDir is a record folder not made yet, in a folder not made
// either: on macOS and Linux the record is saved in ctrld's home, made
// with its parents.
func newRecordDir(t *testing.T) string {
	return filepath.Join(t.TempDir(), "new", "home")
}
