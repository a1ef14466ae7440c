package repocheck

import (
	"bytes"
	"go/format"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// Every tracked Go file is as gofmt writes it, whatever OS it builds for.
func TestEveryGoFileIsGofmted(t *testing.T) {
	git := testenv.RequireTool(t, "git")
	for _, f := range strings.Fields(runIn(t, testenv.RepoRoot(), git, "ls-files", "*.go")) {
		src, err := os.ReadFile(filepath.Join(testenv.RepoRoot(), f))
		if err != nil {
			t.Fatal(err)
		}
		formatted, err := format.Source(src)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if !bytes.Equal(src, formatted) {
			t.Errorf("%s is not gofmted (gofmt -w %s)", f, f)
		}
	}
}
