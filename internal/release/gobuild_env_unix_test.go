//go:build unix

package release

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// The go build the release runs sees no key path and no password, even
// when the caller never forgot them: a fake go on PATH records its
// environment. The fake is a shell script, which Windows would not run
// in place of go.exe.
func TestGoBuildDoesNotSeeSigningSecrets(t *testing.T) {
	testenv.RequireTool(t, "sh")
	bin, work := t.TempDir(), t.TempDir()
	seen := filepath.Join(work, "go-env")
	fake := "#!/bin/sh\nenv > '" + seen + "'\nwhile [ $# -gt 0 ]; do [ \"$1\" = -o ] && : > \"$2\"; shift; done\n"
	if err := os.WriteFile(filepath.Join(bin, "go"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	setSecrets(t)
	c := Config{Repo: work}
	if err := c.goBuild(Platform{OS: "linux", Arch: "amd64"}, "-s -w", filepath.Join(work, "out"), "./wrapper"); err != nil {
		t.Fatal(err)
	}
	env, err := os.ReadFile(seen)
	if err != nil || !strings.Contains(string(env), "GOOS=linux") {
		t.Fatalf("the fake go did not run: %v", err)
	}
	for _, v := range SecretVars {
		if strings.Contains(string(env), v) {
			t.Errorf("go build sees %s", v)
		}
	}
	if strings.Contains(string(env), testenv.Canary) {
		t.Error("a signing secret reached go build")
	}
}
