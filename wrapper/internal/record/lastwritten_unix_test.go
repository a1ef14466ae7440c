//go:build unix

package record

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A link in the record's place is not the record: its target's time
// must not pass for the record's.
func TestLastWrittenDoesNotFollowALink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(t.TempDir(), "elsewhere")
	if err := os.WriteFile(target, []byte("ok\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	future := time.Now().Add(48 * time.Hour)
	if err := os.Chtimes(target, future, future); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(dir, LastFileName)); err != nil {
		t.Fatal(err)
	}
	written, err := LastWritten(dir)
	if err != nil {
		t.Fatal(err)
	}
	if written.Equal(future) {
		t.Error("LastWritten followed the link to its target's time")
	}
}
