package testenv

import (
	"os"
	"path/filepath"
	"testing"
)

func TestFilesWithCanary(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "a", "b"), 0o755)
	leak := filepath.Join(root, "a", "b", "leak.log")
	input := filepath.Join(root, "token")
	os.WriteFile(leak, []byte("x "+Canary+" y"), 0o644)
	os.WriteFile(input, []byte(Canary), 0o600)
	os.WriteFile(filepath.Join(root, "clean"), []byte("nothing"), 0o644)
	os.Symlink(leak, filepath.Join(root, "link"))
	got := FilesWithCanary(root, input)
	if len(got) != 1 || got[0] != leak {
		t.Fatalf("got %v, want only %s", got, leak)
	}
}
