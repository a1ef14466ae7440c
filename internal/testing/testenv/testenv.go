// Package testenv holds what every test tier shares: the canary token, and
// the rule that a test needing a real tool may skip on a laptop but fails
// under CI, where a skip would prove nothing.
package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// Canary is the token every test plants. It is lower-case with digits and
// hyphens, so it can never pass for a code name in the one line.
const Canary = "org-v1-canary-0d3f9a7c2b"

// InCI reports whether the run is CI's (CI=true).
func InCI() bool { return os.Getenv("CI") == "true" }

// Unavailable skips the test, or fails it under CI. Under -short it
// skips even in CI: -short is how the fast CI job leaves out the tiers
// that need real tools.
func Unavailable(t testing.TB, format string, args ...any) {
	t.Helper()
	if testing.Short() {
		t.Skipf("-short: "+format, args...)
	}
	if SkipFails() {
		t.Fatalf("CI must run this test: "+format, args...)
	}
	t.Skipf(format, args...)
}

// SkipFails reports whether a test that cannot run must fail instead of
// skipping: under CI, unless -short leaves it out.
func SkipFails() bool { return InCI() && !testing.Short() }

// RealInstall marks a tier that installs packages for real (dpkg, rpm,
// msiexec under Wine): -short skips it, with the reason printed.
func RealInstall(t testing.TB, tier string) {
	t.Helper()
	if testing.Short() {
		t.Skipf("-short: skips the real-install tier (%s)", tier)
	}
}

// WholeRelease marks a test that runs whole release builds of its own
// (every installer for every platform, some twice): -short skips it,
// with the reason printed, and the full suite runs it.
func WholeRelease(t testing.TB, what string) {
	t.Helper()
	if testing.Short() {
		t.Skipf("-short: skips the whole-release tier (%s)", what)
	}
}

// RequireTool returns the path of a real tool the test needs.
func RequireTool(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		Unavailable(t, "%s not installed", name)
	}
	return p
}

// RepoRoot is the repository's top folder.
func RepoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..")
}

// Fixture is the path of a file or folder under the repository's
// testdata/, named with slashes ("macos/zoom/toc.xml"). Fixtures are part
// of the repository, so a missing one fails the test.
func Fixture(t testing.TB, name string) string {
	t.Helper()
	path := filepath.Join(RepoRoot(), "testdata", filepath.FromSlash(name))
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("fixture %s missing from testdata/: %v", name, err)
	}
	return path
}

// GoBuild builds a package of this module into dir and returns the binary.
func GoBuild(t testing.TB, dir, name, pkg string, env ...string) string {
	t.Helper()
	out := filepath.Join(dir, name)
	if err := Build(out, pkg, nil, env...); err != nil {
		t.Fatal(err)
	}
	return out
}

// Build builds a package of this module into out with go build's extra
// flags and the extra environment. It takes no t, for what is built once
// for many tests.
func Build(out, pkg string, flags []string, env ...string) error {
	args := append(append([]string{"build", "-o", out}, flags...), pkg)
	cmd := exec.Command("go", args...)
	cmd.Dir = RepoRoot()
	cmd.Env = append(os.Environ(), env...)
	if msg, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build %s: %v\n%s", pkg, err, msg)
	}
	return nil
}
