//go:build linux

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// The release main, stamped with -X at names.VersionVar, prints that
// version: a moved or renamed variable would leave "dev".
func TestVersionIsStamped(t *testing.T) {
	out, err := exec.Command(filepath.Join(binDir, "ctrld-install-release"), "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(out), names.Wrapper+" "+testVersion+"\n"; got != want {
		t.Fatalf("version prints %q, want %q", got, want)
	}
}

// The release pipeline stamps the same variable.
func TestReleaseStampsTheVersionVariable(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(testenv.RepoRoot(), "internal", "release", "binaries.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), "-X "+names.VersionVar+"=") && !strings.Contains(string(src), "names.VersionVar") {
		t.Fatalf("internal/release/binaries.go does not stamp %s", names.VersionVar)
	}
}
