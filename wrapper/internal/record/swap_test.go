//go:build linux || darwin

package record

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/codes"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// The commit swaps names instead of renaming over the record: the old
// record waits under the pending name for the next run to remove it, and
// that next run still records cleanly.
func TestCommitKeepsTheOldRecordAsidePending(t *testing.T) {
	dir := t.TempDir()
	first, second, third := codes.Failure(codes.ListenerBindFailed), codes.Success, codes.Failure(codes.TokenExpired)
	for _, o := range []codes.Outcome{first, second} {
		if err := SaveLast(dir, o); err != nil {
			t.Fatal(err)
		}
	}
	if got, _ := ReadLast(dir); got != second {
		t.Fatalf("record holds %q", got.Line())
	}
	aside, err := os.ReadFile(filepath.Join(dir, pendingName))
	if err != nil || string(aside) != first.Line()+"\n" {
		t.Fatalf("the old record was not swapped aside: %q %v", aside, err)
	}
	if err := SaveLast(dir, third); err != nil {
		t.Fatal(err)
	}
	if got, _ := ReadLast(dir); got != third {
		t.Fatalf("record holds %q after a third run", got.Line())
	}
}

// Only a line the wrapper wrote is kept aside: anything else found as the
// record (here a tampered file holding a token) is freed by the commit.
func TestCommitFreesARecordItDidNotWrite(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, LastFileName), []byte("token="+testenv.Canary+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := SaveLast(dir, codes.Success); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(dir, pendingName)); err == nil {
		t.Fatal("the tampered record was kept under the pending name")
	}
	if found := testenv.FilesWithCanary(dir); len(found) > 0 {
		t.Fatalf("canary left in %v", found)
	}
}
