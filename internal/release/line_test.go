package release

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/names"
)

var linuxAmd64 = Platform{"linux", "amd64"}

// ctrldDir lays out CTRLD_DIR with the given files, each a tiny script.
func ctrldDir(t *testing.T, files ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range files {
		path := filepath.Join(dir, f)
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// The demo ctrld for the client line is the demo built under the client
// name, and plays the client line because of it.
func TestDemoIsBuiltUnderTheLineAskedFor(t *testing.T) {
	t.Parallel()
	cfg := baseConfig(t)
	cfg.Version, cfg.Line = "2.0.0", names.CtrldClient
	if err := cfg.check(); err != nil {
		t.Fatal(err)
	}
	staged, err := cfg.stage([]Platform{linuxAmd64})
	if err != nil {
		t.Fatal(err)
	}
	ctrld := staged[linuxAmd64].Ctrld
	if filepath.Base(ctrld) != names.CtrldClient || cfg.Line != names.CtrldClient {
		t.Fatalf("staged %s, line %q", ctrld, cfg.Line)
	}
	out, err := exec.Command(ctrld, "--version").Output()
	if err != nil || string(out) != "ctrld version v2.0.0-pre-client\n" {
		t.Fatalf("the demo does not play the client line: %q %v", out, err)
	}
}

func TestLineIsTakenFromTheInputs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, line string
		files      []string
		want, err  string
	}{
		{"client binaries", "", []string{"linux-amd64/ctrld-client", "windows-amd64/ctrld-client.exe"}, names.CtrldClient, ""},
		{"v1 binaries", "", []string{"linux-amd64/ctrld", "windows-amd64/ctrld.exe"}, names.Ctrld, ""},
		{"both names, line asked for", names.CtrldClient, []string{"linux-amd64/ctrld", "linux-amd64/ctrld-client", "windows-amd64/ctrld-client.exe"}, names.CtrldClient, ""},
		{"mixed lines", "", []string{"linux-amd64/ctrld", "windows-amd64/ctrld-client.exe"}, "", "the ctrld inputs mix lines (ctrld for linux-amd64; ctrld-client for windows-amd64)"},
		{"line the inputs lack", names.CtrldClient, []string{"linux-amd64/ctrld", "windows-amd64/ctrld.exe"}, "", "no ctrld-client in"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := baseConfig(t)
			cfg.CtrldDir, cfg.Line = ctrldDir(t, tc.files...), tc.line
			platforms := []Platform{linuxAmd64, {"windows", "amd64"}}
			staged, err := cfg.stageCtrld(platforms)
			if err == nil {
				err = cfg.settleLine(platforms, staged)
			}
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("got %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || cfg.Line != tc.want {
				t.Fatalf("line %q, want %q (%v)", cfg.Line, tc.want, err)
			}
		})
	}
}

func TestUnknownLineIsRefused(t *testing.T) {
	t.Parallel()
	cfg := baseConfig(t)
	cfg.Version, cfg.Line = "1.0.0", "ctrld-server"
	if _, err := Dist(cfg); err == nil || !strings.Contains(err.Error(), `CTRLD_LINE="ctrld-server"`) {
		t.Fatalf("got %v", err)
	}
}
