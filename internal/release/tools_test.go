package release

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/installers/signing/signingtest"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// A kind that needs a tool names it and its packages, and Dist stops
// before building anything. No kind needs one today, so the test adds
// one to the table.
func TestMissingToolsNamePackagesPerOS(t *testing.T) {
	saved := Tools
	t.Cleanup(func() { Tools = saved })
	Tools = []Tool{
		{Name: "ctrld-test-packer", Debian: "ctrld-test-packer-deb", Homebrew: "ctrld-test-packer-brew", Kinds: []string{"msi"}},
		{Name: "ctrld-test-signer", Debian: "ctrld-test-signer-deb", Homebrew: "ctrld-test-signer-brew", Kinds: []string{"msi"}, SigningOnly: true},
	}
	t.Setenv("PATH", t.TempDir())
	cfg := baseConfig(t)
	cfg.Version, cfg.Kinds = "1.0.0", []string{"msi"}
	missing := MissingTools(cfg)
	if len(missing) != 1 || missing[0].Name != "ctrld-test-packer" {
		t.Fatalf("unsigned MSI: missing %v, want the packer only", missing)
	}
	err := MissingToolsError(missing)
	for _, want := range []string{"missing tools for msi: ctrld-test-packer;",
		"Debian/Ubuntu: sudo apt-get install -y ctrld-test-packer-deb\n", "macOS:         brew install ctrld-test-packer-brew\n"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("message %q lacks %q", err, want)
		}
	}
	if _, err := Dist(cfg); err == nil || !strings.Contains(err.Error(), "apt-get install") {
		t.Fatalf("Dist did not fail fast: %v", err)
	}
	if _, err := os.Stat(cfg.Work); err == nil {
		t.Error("Dist built binaries before checking its tools")
	}
	cfg.Signing = Signing{Windows: signingtest.NewPKI(t).Leaf(t, signingtest.Windows()).Identity()}
	if len(MissingTools(cfg)) != 2 {
		t.Error("a signed MSI does not ask for its signing-only tool")
	}
}

func TestKindsWithoutToolsNeedNone(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go not on PATH")
	}
	t.Setenv("PATH", filepath.Dir(goTool))
	cfg := baseConfig(t)
	if missing := MissingTools(cfg); len(missing) != 0 {
		t.Fatalf("an unsigned release needs %v", missing)
	}
}

// The tools table and the test tiers install from one package list.
func TestToolPackagesAreInTheOnePackageList(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(testenv.RepoRoot(), ".ci", "apt-packages"))
	if err != nil {
		t.Fatal(err)
	}
	listed := strings.Fields(string(data))
	for _, tool := range Tools {
		if !slices.Contains(listed, tool.Debian) {
			t.Errorf("%s: Debian package %s is not in .ci/apt-packages", tool.Name, tool.Debian)
		}
		if tool.Homebrew == "" {
			t.Errorf("%s: no Homebrew formula", tool.Name)
		}
		for _, k := range tool.Kinds {
			if _, ok := KindNamed(k); !ok {
				t.Errorf("%s: unknown kind %s", tool.Name, k)
			}
		}
	}
}
