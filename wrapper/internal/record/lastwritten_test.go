package record

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/codes"
)

// LastWritten gives the record's modification time, and an error when
// there is no record.
func TestLastWrittenIsTheRecordsTime(t *testing.T) {
	dir := newRecordDir(t)
	if _, err := LastWritten(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("no record: %v, want not-exist", err)
	}
	if err := SaveLast(dir, codes.Success); err != nil {
		t.Fatal(err)
	}
	stamp := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	if err := os.Chtimes(filepath.Join(dir, LastFileName), stamp, stamp); err != nil {
		t.Fatal(err)
	}
	written, err := LastWritten(dir)
	if err != nil || !written.Equal(stamp) {
		t.Fatalf("LastWritten = %v, %v; want %v", written, err, stamp)
	}
}
