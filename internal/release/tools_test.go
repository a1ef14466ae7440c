package release

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testenv"
)

func TestMissingToolsNamePackagesPerOS(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	cfg := baseConfig(t)
	cfg.Version, cfg.Kinds = "1.0.0", []string{"msi"}
	if missing := MissingTools(cfg); len(missing) != 0 {
		t.Fatalf("an unsigned MSI needs %v", missing)
	}
	cfg.Signing = Signing{MsiCert: "c.pem", MsiKey: "k.pem"}
	err := MissingToolsError(MissingTools(cfg))
	if err == nil {
		t.Fatal("no error with an empty PATH")
	}
	for _, want := range []string{"missing tools for msi: osslsigncode;",
		"Debian/Ubuntu: sudo apt-get install -y osslsigncode\n", "macOS:         brew install osslsigncode\n"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message %q lacks %q", err, want)
		}
	}
	if _, err := Dist(cfg); err == nil || !strings.Contains(err.Error(), "apt-get install") {
		t.Fatalf("Dist did not fail fast: %v", err)
	}
	if _, err := os.Stat(cfg.Work); err == nil {
		t.Error("Dist built binaries before checking its tools")
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
