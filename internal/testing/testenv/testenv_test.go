package testenv

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestHelperTier is run as a child by the tests below.
func TestHelperTier(t *testing.T) {
	switch os.Getenv("TESTENV_HELPER") {
	case "unavailable":
		Unavailable(t, "frobnicator not installed")
	case "real-install":
		RealInstall(t, "frobnicator installs")
	case "fixture":
		Fixture(t, "no/such/fixture")
	}
}

func runHelper(t *testing.T, helper string, env []string, args ...string) (string, bool) {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"-test.run=^TestHelperTier$", "-test.v"}, args...)...)
	cmd.Env = append(os.Environ(), append(env, "TESTENV_HELPER="+helper)...)
	out, err := cmd.CombinedOutput()
	return string(out), err == nil
}

func TestShortSkipsRealToolTiersEvenInCI(t *testing.T) {
	out, ok := runHelper(t, "unavailable", []string{"CI=true"}, "-test.short")
	if !ok || !strings.Contains(out, "-short: frobnicator not installed") || !strings.Contains(out, "--- SKIP") {
		t.Fatalf("-short under CI:\n%s", out)
	}
	out, ok = runHelper(t, "unavailable", []string{"CI=true"})
	if ok || !strings.Contains(out, "CI must run this test: frobnicator not installed") {
		t.Fatalf("CI without -short:\n%s", out)
	}
	out, ok = runHelper(t, "unavailable", []string{"CI="})
	if !ok || !strings.Contains(out, "--- SKIP") {
		t.Fatalf("laptop:\n%s", out)
	}
}

func TestRealInstallSkipsOnlyUnderShort(t *testing.T) {
	out, ok := runHelper(t, "real-install", []string{"CI=true"}, "-test.short")
	if !ok || !strings.Contains(out, "-short: skips the real-install tier (frobnicator installs)") {
		t.Fatalf("-short:\n%s", out)
	}
	out, ok = runHelper(t, "real-install", []string{"CI=true"})
	if !ok || strings.Contains(out, "--- SKIP") {
		t.Fatalf("without -short the tier runs:\n%s", out)
	}
}

func TestFixtureComesFromTestdata(t *testing.T) {
	if _, err := os.Stat(Fixture(t, "macos/SHA256SUMS")); err != nil {
		t.Fatal(err)
	}
	out, ok := runHelper(t, "fixture", []string{"CI="})
	if ok || !strings.Contains(out, "fixture no/such/fixture missing from testdata/") {
		t.Fatalf("a missing fixture must fail, even off CI:\n%s", out)
	}
}
