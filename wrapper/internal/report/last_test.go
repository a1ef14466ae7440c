package report

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ctrld-install/ctrld-install/wrapper/codes"
)

func TestSaveAndReadLast(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new", "home")
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
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("temp files left: %v", entries)
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
