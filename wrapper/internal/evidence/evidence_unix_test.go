//go:build unix

package evidence

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/codes"
)

func TestSaveLoadRoundTrip(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	began := time.Now()
	freshResult(t, home, "provision_result-listener.json", began, nil)
	r, _ := FromResultFile(home, began, listenerFailed, canary)
	recordTime := time.Now().Add(-time.Second)
	if err := Save(dir, r); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(filepath.Join(dir, FileName))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("kept copy: %v, mode %v", err, info.Mode())
	}
	got, err := Load(dir, listenerFailed.Line(), recordTime, canary)
	if err != nil {
		t.Fatal(err)
	}
	r.Version = recordVersion
	if a, b := mustJSON(t, got), mustJSON(t, r); a != b {
		t.Fatalf("round trip:\n%s\nwant\n%s", a, b)
	}
	if _, err := Load(dir, codes.Success.Line(), recordTime, canary); err != ErrNone {
		t.Errorf("copy for another line: %v", err)
	}
	if _, err := Load(dir, listenerFailed.Line(), time.Now().Add(time.Hour), canary); err != ErrNone {
		t.Errorf("copy older than the record: %v", err)
	}
	if err := Remove(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dir, listenerFailed.Line(), recordTime, canary); err != ErrNone {
		t.Errorf("removed copy: %v", err)
	}
	if err := Remove(dir); err != nil {
		t.Errorf("removing twice: %v", err)
	}
	if err := Save(filepath.Join(dir, "missing"), r); err == nil {
		t.Error("saved into a missing folder")
	}
}
