package report

import (
	"path/filepath"
	"testing"
)

// newRecordDir is a record folder not made yet. Windows makes it alone,
// with its own ACL, in ProgramData, which always exists.
func newRecordDir(t *testing.T) string {
	return filepath.Join(t.TempDir(), "home")
}
