package provision

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/settings"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/platform"
)

func TestReadTokenFile(t *testing.T) {
	dir := t.TempDir()
	for body, want := range map[string]string{
		"abc\n": "abc", "abc\r\n": "abc", "abc": "abc", "abc\n\n": "abc\n", "\n": "", "": "", " abc\n": " abc",
	} {
		p := filepath.Join(dir, "tok")
		os.WriteFile(p, []byte(body), 0o600)
		got, err := readTokenFile(p)
		if err != nil || got != want {
			t.Errorf("%q: got %q, %v", body, got, err)
		}
	}
	big := filepath.Join(dir, "big")
	os.WriteFile(big, []byte(strings.Repeat("a", maxTokenFile+1)), 0o600)
	if _, err := readTokenFile(big); err == nil {
		t.Error("oversized token file accepted")
	}
}

func TestResolveTokenPrecedence(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "tok")
	os.WriteFile(file, []byte("from-file\n"), 0o600)
	env := []string{"PATH=/bin", TokenEnv + "=from-env"}
	for _, tc := range []struct {
		in   Input
		want string
	}{
		{Input{}, "from-env"},
		{Input{Flags: settings.Settings{settings.ProvisionToken: "from-flag"}}, "from-flag"},
		{Input{Flags: settings.Settings{settings.ProvisionToken: "from-flag"}, TokenFile: file}, "from-file"},
		{Input{Flags: settings.Settings{settings.ProvisionToken: "from-flag"}, TokenFile: filepath.Join(dir, "missing")}, "from-flag"},
	} {
		var w warnings
		cfg := Resolve(tc.in, platform.Linux{}, env, &w)
		if got, _ := cfg.Given.Get(settings.ProvisionToken); got != tc.want {
			t.Errorf("%+v: token %q, want %q", tc.in, got, tc.want)
		}
		if strings.Contains(strings.Join(cfg.Env, " "), "from-env") {
			t.Errorf("ctrld's environment keeps the token: %q", cfg.Env)
		}
	}
}
