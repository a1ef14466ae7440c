//go:build unix

package safefile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

func TestTrustedDir(t *testing.T) {
	private := t.TempDir()
	if err := TrustedDir(private); err != nil {
		t.Fatalf("a 0700 folder of this account: %v", err)
	}
	for name, tc := range map[string]struct {
		plant func(path string) error
		why   string
	}{
		"world-writable":           {func(p string) error { return mkdirMode(p, 0o777) }, "group- or world-writable"},
		"group-writable":           {func(p string) error { return mkdirMode(p, 0o770) }, "group- or world-writable"},
		"link to a private folder": {func(p string) error { return os.Symlink(private, p) }, "a link or not a directory"},
		"file":                     {func(p string) error { return os.WriteFile(p, nil, 0o600) }, "a link or not a directory"},
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "home")
			if err := tc.plant(path); err != nil {
				t.Fatal(err)
			}
			err := TrustedDir(path)
			if !errors.Is(err, ErrUntrustedDir) || !strings.Contains(err.Error(), tc.why) {
				t.Fatalf("got %v, want a refusal: %s", err, tc.why)
			}
		})
	}
	if err := TrustedDir(filepath.Join(private, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a missing folder: %v", err)
	}
}

// A folder another user owns, however private, is refused: that user
// could put anything in it.
func TestTrustedDirOwnedByAnother(t *testing.T) {
	testenv.RequireRoot(t, "chown a folder to another user")
	dir := filepath.Join(t.TempDir(), "home")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(dir, 1000, 1000); err != nil {
		t.Fatal(err)
	}
	if err := TrustedDir(dir); !errors.Is(err, ErrUntrustedDir) || !strings.Contains(err.Error(), "owned by uid 1000") {
		t.Fatalf("got %v", err)
	}
}

func mkdirMode(path string, mode os.FileMode) error {
	if err := os.Mkdir(path, 0o700); err != nil {
		return err
	}
	return os.Chmod(path, mode)
}
