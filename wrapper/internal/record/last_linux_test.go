package record

import (
	"syscall"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/codes"
)

// A write that fails must not leave the previous record behind: `last`
// would report an older attempt (a success, here) as the latest.
func TestFailedSaveLeavesNoStaleRecord(t *testing.T) {
	dir := t.TempDir()
	if err := SaveLast(dir, codes.Success); err != nil {
		t.Fatal(err)
	}
	// A file size limit of zero fails the new record's write (EFBIG; Go
	// ignores SIGXFSZ), as a full disk would, whoever runs the test.
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &old); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: 0, Max: old.Max}); err != nil {
		t.Fatal(err)
	}
	err := SaveLast(dir, codes.Failure(codes.ListenerBindFailed))
	syscall.Setrlimit(syscall.RLIMIT_FSIZE, &old)
	if err == nil {
		t.Fatal("the write did not fail; the test proves nothing")
	}
	if o, ok := ReadLast(dir); ok {
		t.Fatalf("the old record survived the failed write: %q", o.Line())
	}
}
