package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestRead(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small")
	os.WriteFile(small, []byte("hello"), 0o600)
	link := filepath.Join(dir, "link")
	os.Symlink(small, link)

	if data, err := Read(small, Options{MaxSize: 5}); err != nil || string(data) != "hello" {
		t.Fatalf("small: %q %v", data, err)
	}
	if _, err := Read(small, Options{MaxSize: 4}); !errors.Is(err, ErrRefused) {
		t.Fatalf("over the cap: %v", err)
	}
	if _, err := Read(link, Options{MaxSize: 5}); err != nil {
		t.Fatalf("link followed by default: %v", err)
	}
	if _, err := Read(link, Options{MaxSize: 5, NoLinks: true}); !errors.Is(err, ErrRefused) {
		t.Fatalf("link with NoLinks: %v", err)
	}
	if _, err := Read(dir, Options{MaxSize: 1 << 20}); !errors.Is(err, ErrRefused) {
		t.Fatalf("directory: %v", err)
	}
	if _, err := Read(filepath.Join(dir, "missing"), Options{MaxSize: 5}); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing: %v", err)
	}
}

func TestReadCheckJudgesTheOpenedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	os.WriteFile(path, []byte("x"), 0o600)
	reason := errors.New("not good enough")
	var seen fs.FileInfo
	_, err := Read(path, Options{MaxSize: 5, Check: func(fi fs.FileInfo) error { seen = fi; return reason }})
	if !errors.Is(err, ErrRefused) || !errors.Is(err, reason) {
		t.Fatalf("got %v, want both ErrRefused and the reason", err)
	}
	if seen == nil || !seen.Mode().IsRegular() || seen.Size() != 1 {
		t.Fatalf("check saw %v", seen)
	}
}
