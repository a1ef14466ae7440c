package repocheck

import (
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// buildOutputs are the ignored folders the build itself writes (dist and
// its intermediates); nothing a test reads lives there.
var buildOutputs = []string{"dist/", "build/"}

// A plain clone of HEAD, with nothing beside it, vets and tests clean with
// CI unset. A clone holds only what git tracks, so:
//   - it vets and builds in a folder with nothing beside it, always;
//   - when the checkout under test holds exactly HEAD's files (nothing
//     changed, untracked or ignored but the build outputs), the suite
//     running now is the clone's own test run, and stricter (CI=true
//     fails a skip), so it is not run twice;
//   - otherwise the clone runs `go test -short ./...` itself: the
//     real-install tiers are the full suite's, and -short keeps this test
//     from cloning itself again; no test may report a missing fixture or
//     look outside the clone.
func TestPlainCloneVetsAndTests(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the clone test builds the module again")
	}
	git := testenv.RequireTool(t, "git")
	stray := filesNotInHead(t, git)
	clone := cloneHead(t, git)
	runIn(t, clone, "go", "vet", "./...")
	if len(stray) == 0 {
		t.Log("the checkout holds HEAD's files and the build outputs only: this suite's run is the clone's test run")
		return
	}
	t.Logf("the checkout differs from HEAD (%s), so the clone runs its tests itself", strings.Join(stray, ", "))
	out := runIn(t, clone, "go", "test", "-short", "-count=1", "-v", "./...")
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "fixture") && (strings.Contains(line, "missing") || strings.Contains(line, "not found")) {
			t.Errorf("a test reports a missing fixture: %s", line)
		}
		if strings.Contains(line, "/"+besideRepo+"/") {
			t.Errorf("a test looks outside the clone: %s", line)
		}
	}
}

// filesNotInHead lists what a clone of HEAD would lack or hold otherwise:
// changed, untracked and ignored files, the build outputs left out.
func filesNotInHead(t *testing.T, git string) []string {
	t.Helper()
	out := runIn(t, testenv.RepoRoot(), git, "status", "--porcelain", "--ignored", "--untracked-files=all")
	var stray []string
	for _, line := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		if len(line) < 4 || isBuildOutput(line[3:]) {
			continue
		}
		stray = append(stray, line[3:])
	}
	return stray
}

func isBuildOutput(path string) bool {
	for _, dir := range buildOutputs {
		if strings.HasPrefix(path, dir) {
			return true
		}
	}
	return strings.HasSuffix(path, ".test")
}

// cloneHead clones HEAD into a folder with nothing beside it.
func cloneHead(t *testing.T, git string) string {
	t.Helper()
	head := strings.TrimSpace(runIn(t, "", git, "-C", testenv.RepoRoot(), "rev-parse", "HEAD"))
	clone := filepath.Join(t.TempDir(), "ctrld-install")
	runIn(t, "", git, "clone", "--quiet", "--no-checkout", testenv.RepoRoot(), clone)
	runIn(t, clone, git, "checkout", "--quiet", head)
	if _, err := os.Stat(filepath.Join(filepath.Dir(clone), besideRepo)); err == nil {
		t.Fatal("the clone has a " + besideRepo + " folder beside it")
	}
	return clone
}

// besideRepo is the folder CI keeps beside the repository, which a plain
// clone does not have.
const besideRepo = "shared"

// reachesBeside are the ways Go code or a script names what lies beside
// the repository. They are built from parts, so this file names none of
// them itself.
var reachesBeside = []string{
	path.Join("..", besideRepo),
	strconv.Quote("..") + ", " + strconv.Quote(besideRepo),
	"RepoRoot(), " + strconv.Quote(".."),
	"filepath.Dir(testenv." + "RepoRoot())",
}

// No tracked file but .ci/run, which hands the real ctrld to the suite
// through CTRLD_REAL, names the material beside the repository: a test
// that read it would pass in CI and fail in a plain clone.
func TestNothingReadsBesideTheRepository(t *testing.T) {
	git := testenv.RequireTool(t, "git")
	files := strings.Fields(runIn(t, testenv.RepoRoot(), git, "ls-files"))
	for _, f := range files {
		if f == ".ci/run" {
			continue
		}
		body, err := os.ReadFile(filepath.Join(testenv.RepoRoot(), f))
		if err != nil {
			continue
		}
		for _, reach := range reachesBeside {
			if strings.Contains(string(body), reach) {
				t.Errorf("%s reaches beside the repository (%s)", f, reach)
			}
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
