package repocheck

import (
	"go/build/constraint"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// testingTree is where the test-only packages live; they may import the
// rest of the module, but nothing outside them may import them.
const testingTree = "internal/testing/"

// buildToolTags mark files that only the build tooling compiles
// (magefile.go, mage.go): they drive the tests, so they may import them.
var buildToolTags = []string{"mage", "ignore"}

// No file outside internal/testing imports a package under it, test
// files aside: production code and the test helpers kept beside it
// (signingtest, plisttest) stay below the testing tree.
func TestNothingImportsTheTestingTree(t *testing.T) {
	module := modulePath(t)
	for _, f := range nonTestFiles(t) {
		if strings.HasPrefix(f, testingTree) {
			continue
		}
		for _, imp := range importsOf(t, f) {
			if strings.HasPrefix(imp, module+"/"+testingTree) && !buildTool(t, f) {
				t.Errorf("%s imports %s: only test files may import the testing tree", f, imp)
			}
		}
	}
}

// helperSuffix ends the name of a test helper package kept beside the
// code it serves (signingtest, plisttest, notarytest).
const helperSuffix = "test"

// Production code never imports a test helper package: only tests and
// other helpers do.
func TestProductionImportsNoTestHelper(t *testing.T) {
	module := modulePath(t)
	for _, f := range nonTestFiles(t) {
		if strings.HasPrefix(f, testingTree) || strings.HasSuffix(filepath.Base(filepath.Dir(f)), helperSuffix) {
			continue
		}
		for _, imp := range importsOf(t, f) {
			if strings.HasPrefix(imp, module+"/") && strings.HasSuffix(imp, helperSuffix) && !buildTool(t, f) {
				t.Errorf("%s imports the test helper %s", f, imp)
			}
		}
	}
}

// nonTestFiles are the tracked Go files that are not _test.go files.
func nonTestFiles(t *testing.T) []string {
	t.Helper()
	git := testenv.RequireTool(t, "git")
	var out []string
	for _, f := range strings.Fields(runIn(t, testenv.RepoRoot(), git, "ls-files", "*.go")) {
		if !strings.HasSuffix(f, "_test.go") {
			out = append(out, f)
		}
	}
	return out
}

// modulePath is the module's path as go.mod declares it.
func modulePath(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(testenv.RepoRoot(), "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if path, ok := strings.CutPrefix(line, "module "); ok {
			return strings.TrimSpace(path)
		}
	}
	t.Fatal("go.mod declares no module")
	return ""
}

func importsOf(t *testing.T, file string) []string {
	t.Helper()
	parsed, err := parser.ParseFile(token.NewFileSet(), filepath.Join(testenv.RepoRoot(), file), nil, parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, spec := range parsed.Imports {
		path, err := strconv.Unquote(spec.Path.Value)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, path)
	}
	return out
}

// buildTool says whether a file's build constraint names a build-tool tag.
func buildTool(t *testing.T, file string) bool {
	t.Helper()
	parsed, err := parser.ParseFile(token.NewFileSet(), filepath.Join(testenv.RepoRoot(), file), nil, parser.ImportsOnly|parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	for _, group := range parsed.Comments {
		for _, c := range group.List {
			expr, err := constraint.Parse(c.Text)
			if err != nil {
				continue
			}
			named := false
			expr.Eval(func(tag string) bool {
				named = named || slices.Contains(buildToolTags, tag)
				return true
			})
			if named {
				return true
			}
		}
	}
	return false
}
