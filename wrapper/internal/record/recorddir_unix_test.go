//go:build unix

package record

import (
	"os"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/codes"
)

// On macOS and Linux the record folder is ctrld's home: a run that writes
// the record makes it, with its parents, private to root.
func TestSavingMakesARecordFolderPrivate(t *testing.T) {
	dir := newRecordDir(t)
	if err := SaveLast(dir, codes.Success); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(dir); err != nil || info.Mode().Perm() != 0o700 {
		t.Fatalf("the folder is %v, %v", info, err)
	}
}
