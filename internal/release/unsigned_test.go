package release

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// unsignedInstaller writes its file but signs nothing, as an installer
// that lost its keys would.
type unsignedInstaller struct{}

func (unsignedInstaller) FileName() string { return "lost-keys.msi" }

func (unsignedInstaller) Build(w io.Writer) (bool, error) {
	_, err := w.Write([]byte("an unsigned installer"))
	return false, err
}

// A build whose signing inputs are set but which comes out unsigned
// fails, and leaves no file behind.
func TestABuildAskedToSignThatDoesNotFails(t *testing.T) {
	cfg := baseConfig(t)
	cfg.CtrldDir = t.TempDir()
	if err := cfg.check(); err != nil {
		t.Fatal(err)
	}
	_, err := cfg.runJob(job{kind: "msi", installer: unsignedInstaller{}, signs: true})
	if !errors.Is(err, ErrNotSigned) {
		t.Fatalf("got %v, want ErrNotSigned", err)
	}
	if _, err := os.Stat(filepath.Join(cfg.Out, "lost-keys.msi")); !os.IsNotExist(err) {
		t.Errorf("the unsigned file is left in dist: %v", err)
	}
	if _, err := cfg.runJob(job{kind: "msi", installer: unsignedInstaller{}}); err != nil {
		t.Errorf("a build not asked to sign: %v", err)
	}
}
