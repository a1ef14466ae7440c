package repocheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// .ci/run is the README's test command and nothing more: the tools come
// from `go run mage.go test` itself.
func TestCIRunIsTheReadmeCommand(t *testing.T) {
	run, _ := os.ReadFile(filepath.Join(testenv.RepoRoot(), ".ci", "run"))
	readme, _ := os.ReadFile(filepath.Join(testenv.RepoRoot(), "README.md"))
	const command = "go run mage.go test"
	if !strings.Contains(string(run), "\n"+command+"\n") || !strings.Contains(string(readme), command) {
		t.Errorf("%q must be both the README's test command and what .ci/run runs", command)
	}
	if strings.Contains(string(run), "apt-get") {
		t.Error(".ci/run installs packages itself")
	}
}
