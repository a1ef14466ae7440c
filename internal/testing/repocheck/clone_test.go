package repocheck

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// A plain clone of HEAD, with nothing beside it, vets and tests clean with
// CI unset. The inner run is -short (the real-install tiers are the full
// suite's, and -short keeps this test from cloning itself again); every
// fixture test still runs, and none may report a missing fixture.
func TestPlainCloneVetsAndTests(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the clone test runs the module's tests again")
	}
	git := testenv.RequireTool(t, "git")
	head, err := exec.Command(git, "-C", testenv.RepoRoot(), "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}
	clone := filepath.Join(t.TempDir(), "ctrld-install")
	runIn(t, "", git, "clone", "--quiet", "--no-checkout", testenv.RepoRoot(), clone)
	runIn(t, clone, git, "checkout", "--quiet", strings.TrimSpace(string(head)))
	if _, err := os.Stat(filepath.Join(filepath.Dir(clone), "shared")); err == nil {
		t.Fatal("the clone has a shared folder beside it")
	}
	runIn(t, clone, "go", "vet", "./...")
	out := runIn(t, clone, "go", "test", "-short", "-count=1", "-v", "./...")
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "fixture") && (strings.Contains(line, "missing") || strings.Contains(line, "not found")) {
			t.Errorf("a test reports a missing fixture: %s", line)
		}
		if strings.Contains(line, "/shared/") {
			t.Errorf("a test looks outside the clone: %s", line)
		}
	}
}

// runIn runs a command as on a fresh machine, with CI and the real ctrld
// (CTRLD_REAL) unset, and fails the test on a non-zero exit.
func runIn(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CI=") && !strings.HasPrefix(kv, "CTRLD_REAL=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s in %s: %v\n%s", name, strings.Join(args, " "), dir, err, out)
	}
	return string(out)
}
