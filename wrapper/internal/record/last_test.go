package record

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/codes"
)

// newRecordDir is a record folder not made yet, in a folder not made
// either: the record is saved in a folder made with its parents.
func newRecordDir(t *testing.T) string {
	return filepath.Join(t.TempDir(), "new", "home")
}

func TestSaveAndReadLast(t *testing.T) {
	dir := newRecordDir(t)
	o := codes.Failure(codes.ListenerBindFailed)
	if err := SaveLast(dir, o); err != nil {
		t.Fatal(err)
	}
	got, ok := ReadLast(dir)
	if !ok || got != o {
		t.Fatalf("got %+v %v", got, ok)
	}
	if err := SaveLast(dir, codes.Success); err != nil {
		t.Fatal(err)
	}
	if got, _ := ReadLast(dir); !got.OK {
		t.Fatal("overwrite lost")
	}
	for _, e := range dirNames(t, dir) {
		if e != LastFileName && e != pendingName {
			t.Fatalf("left behind: %s", e)
		}
	}
}

func TestReadLastRejectsTampering(t *testing.T) {
	for _, body := range []string{
		"",
		"provisioning failed: stage=listener code=LISTENER_BIND_FAILED (exit 41) org-v1-canary\n",
		"hello\n",
		string(make([]byte, 4096)),
	} {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, LastFileName), []byte(body), 0o644)
		if o, ok := ReadLast(dir); ok {
			t.Errorf("accepted %q as %+v", body, o)
		}
	}
	if _, ok := ReadLast(t.TempDir()); ok {
		t.Error("missing file read as a line")
	}
}

func TestPendingRecord(t *testing.T) {
	dir := t.TempDir()
	// A run killed midway left a pending file; a link stands where the
	// record goes next.
	os.WriteFile(filepath.Join(dir, pendingName), []byte("half"), 0o644)
	if err := Prepare(dir, codes.Success).Record(codes.Success); err != nil {
		t.Fatal(err)
	}
	if got, ok := ReadLast(dir); !ok || !got.OK {
		t.Fatalf("prepared success not recorded: %+v %v", got, ok)
	}
	// The guess was wrong: the real outcome is recorded.
	if err := Prepare(dir, codes.Success).Record(codes.Failure(codes.TokenExpired)); err != nil {
		t.Fatal(err)
	}
	if got, _ := ReadLast(dir); got.Code != codes.TokenExpired {
		t.Fatalf("got %q", got.Line())
	}
	for _, e := range dirNames(t, dir) {
		if e != LastFileName && e != pendingName {
			t.Fatalf("left behind: %s", e)
		}
	}
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func TestPendingNeverWritesThroughALink(t *testing.T) {
	dir, elsewhere := t.TempDir(), t.TempDir()
	target := filepath.Join(elsewhere, "victim")
	os.WriteFile(target, []byte("keep\n"), 0o644)
	os.Symlink(target, filepath.Join(dir, pendingName))
	if err := SaveLast(dir, codes.Success); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(target); string(data) != "keep\n" {
		t.Fatalf("wrote through the link: %q", data)
	}
	if got, ok := ReadLast(dir); !ok || !got.OK {
		t.Fatal("record not written")
	}
}

func TestRemoveLastTakesThePendingFileToo(t *testing.T) {
	dir := t.TempDir()
	if err := SaveLast(dir, codes.Success); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, pendingName), nil, 0o644)
	if err := RemoveLast(dir); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("left behind: %v", entries)
	}
}
