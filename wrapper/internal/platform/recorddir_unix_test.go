//go:build unix

package platform

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// On macOS and Linux the record folder is the ctrld home dir: nothing is
// claimed or refused before ctrld runs, and a run that writes in it makes
// it private.
func TestUnixRecordFolderIsMadePrivateOnlyToWrite(t *testing.T) {
	for _, osys := range []OS{Linux{}, Darwin{}} {
		dir := filepath.Join(t.TempDir(), "home", "records")
		if err := osys.ClaimRecordDir(dir); err != nil {
			t.Fatalf("%T: claim: %v", osys, err)
		}
		if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("%T: the claim made the folder: %v", osys, err)
		}
		if err := osys.PrepareRecordDir(dir); err != nil {
			t.Fatalf("%T: prepare: %v", osys, err)
		}
		if info, err := os.Stat(dir); err != nil || info.Mode().Perm() != 0o700 {
			t.Fatalf("%T: the folder is %v, %v", osys, info, err)
		}
		if err := osys.CheckRecordDir(dir); err != nil {
			t.Fatalf("%T: check: %v", osys, err)
		}
	}
}
