package tiers

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/release"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Fuzz targets are found as go test finds them: FuzzXxx(*testing.F) in
// either test package, under any import name. (The fixture's functions
// are indented so that the text search below does not take them for
// this package's own.)
func TestFuzzTargetsAreFoundByListing(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		"a/a.go": "package a\n",
		"a/a_test.go": `package a
import "testing"
	func FuzzOne(f *testing.F)            {}
	func Fuzz_Two(f *testing.F)           {}
	func Fuzzy(f *testing.F)              {}
	func FuzzWrongParam(t *testing.T)     {}
	func FuzzTwoParams(f *testing.F, n int) {}
	type r struct{}
	func (r) FuzzMethod(f *testing.F)     {}
`,
		"b/b.go": "package b\n",
		"b/x_test.go": `package b_test
import tt "testing"
	func FuzzThree(f *tt.F) {}
`,
		"c/c.go": "package c\n",
	})
	t.Chdir(dir)
	mod, err := listModule()
	if err != nil {
		t.Fatal(err)
	}
	got, err := mod.fuzzTargets()
	if err != nil {
		t.Fatal(err)
	}
	want := []FuzzTarget{{"./a", "FuzzOne"}, {"./a", "Fuzz_Two"}, {"./b", "FuzzThree"}}
	if !slices.Equal(got, want) {
		t.Errorf("fuzz targets %v, want %v", got, want)
	}
}

// Every func Fuzz in the module's test files gets a fuzz command, as a
// plain text search finds them.
func TestEveryFuzzTargetOfTheModuleIsFuzzed(t *testing.T) {
	t.Chdir(testenv.RepoRoot())
	mod, err := listModule()
	if err != nil {
		t.Fatal(err)
	}
	cmds, err := mod.fuzzCommands()
	if err != nil {
		t.Fatal(err)
	}
	var commands []string
	for _, c := range cmds {
		commands = append(commands, c.String())
	}
	declared := regexp.MustCompile(`(?m)^func (Fuzz\w*)\(\w+ \*testing\.F\)`)
	found := 0
	for _, p := range mod.Packages {
		for _, file := range p.TestFiles {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range declared.FindAllSubmatch(src, -1) {
				found++
				want := "-fuzz '^" + string(m[1]) + "$' -fuzztime "
				if !slices.ContainsFunc(commands, func(c string) bool { return strings.Contains(c, want) && strings.HasSuffix(c, " "+p.Rel) }) {
					t.Errorf("%s %s is not fuzzed", p.Rel, m[1])
				}
			}
		}
	}
	if found != len(cmds) || found == 0 {
		t.Errorf("%d fuzz targets declared, %d fuzz commands", found, len(cmds))
	}
}

func TestABudgetForNoTargetFails(t *testing.T) {
	var targets []FuzzTarget
	for target := range fuzzExecs {
		targets = append(targets, target)
	}
	if err := checkBudgets(targets); err != nil {
		t.Fatalf("every budget has its target: %v", err)
	}
	if err := checkBudgets(targets[1:]); err == nil {
		t.Error("a budget whose target is gone passed")
	}
}

func TestRaceRule(t *testing.T) {
	t.Chdir(testenv.RepoRoot())
	mod, err := listModule()
	if err != nil {
		t.Fatal(err)
	}
	for rel, want := range map[string]bool{
		"./wrapper/internal/scan":          true,
		"./wrapper/settings":               true,
		"./installers/windows/cab":         true,
		"./installers/macos/xar":           true,
		"./wrapper":                        false,
		"./installers/windows":             false,
		"./installers/signing/signingtest": false,
		"./internal/release":               false,
		"./internal/testing/realctrld":     false,
	} {
		p, ok := mod.find(rel)
		if !ok {
			t.Fatalf("no package %s", rel)
		}
		if got := mod.raced(p); got != want {
			t.Errorf("%s raced = %v, want %v", rel, got, want)
		}
	}
	if err := mod.checkReleaseRaceTests(); err != nil {
		t.Error(err)
	}
}

func TestARaceTestPatternMatchingNothingFails(t *testing.T) {
	t.Chdir(testenv.RepoRoot())
	mod, err := listModule()
	if err != nil {
		t.Fatal(err)
	}
	saved := releaseRaceTests
	t.Cleanup(func() { releaseRaceTests = saved })
	releaseRaceTests = append(slices.Clone(saved), "TestNoSuchTest")
	if err := mod.checkReleaseRaceTests(); err == nil || !strings.Contains(err.Error(), "TestNoSuchTest") {
		t.Errorf("checkReleaseRaceTests = %v", err)
	}
}

// Each package runs once: the real-ctrld tier's beside, the others in one
// of the unit commands.
func TestPlanRunsEveryPackageOnce(t *testing.T) {
	t.Chdir(testenv.RepoRoot())
	var out bytes.Buffer
	if err := Plan(&out); err != nil {
		t.Fatal(err)
	}
	mod, err := listModule()
	if err != nil {
		t.Fatal(err)
	}
	plan := out.String()
	unit := plan[strings.Index(plan, "unit tests"):strings.Index(plan, "fuzzing:")]
	for _, p := range mod.Packages {
		runs := strings.Count(unit+" ", " "+p.Rel+" ") + strings.Count(unit, " "+p.Rel+"\n")
		if p.Rel == realCtrldPackage {
			runs += strings.Count(plan, " "+realCtrldPackage+"\n")
		}
		if want := 1 + boolInt(p.Rel == releasePackage); runs != want {
			t.Errorf("%s runs %d times in the plan, want %d", p.Rel, runs, want)
		}
	}
	for _, k := range release.Kinds {
		if !strings.Contains(plan, "GOOS="+k.OS+" go vet") {
			t.Errorf("no vet for %s", k.OS)
		}
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
