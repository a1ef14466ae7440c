package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// realLines are the real binaries the fixtures come from: the folder,
// the name the binary is released under, and its console format.
var realLines = []struct{ dir, binary, format string }{
	{"real-v1.5.0", names.Ctrld, formatV1},
	{"real-v2.0.0-pre", names.Ctrld, formatV2},
	{"real-v2.0.0-pre-client", names.CtrldClient, formatV2},
}

// cliFixtures are the fixtures that are not log lines.
var cliFixtures = map[string]bool{"help.txt": true, "version.txt": true}

func fixture(t *testing.T, dir, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(testenv.Fixture(t, "ctrld-output/"+dir), name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// The fake's --help and --version are the real ones of the line it
// plays, by its binary's name and its format.
func TestFakeHelpAndVersionFollowTheRealLines(t *testing.T) {
	for _, l := range realLines {
		if got, want := helpText, fixture(t, l.dir, "help.txt"); got != want {
			t.Errorf("%s: help differs:\nfake %q\nreal %q", l.dir, got, want)
		}
		bin := filepath.Join("/usr/bin", l.binary)
		if got, want := versionLine(bin, l.format, ""), fixture(t, l.dir, "version.txt"); got != want {
			t.Errorf("%s: --version %q, real %q", l.dir, got, want)
		}
	}
	if got := versionLine("/usr/bin/ctrld", formatV2, "v9.9.9"); got != "ctrld version v9.9.9\n" {
		t.Errorf("a scenario's version: %q", got)
	}
}

// Built and named ctrld-client, the fake plays the client line.
func TestFakeBuiltAsCtrldClientIsTheClientLine(t *testing.T) {
	dir := t.TempDir()
	bin := testenv.GoBuild(t, dir, names.CtrldClient, "./testdata/fakectrld")
	t.Setenv("FAKE_CTRLD_SCENARIO", filepath.Join(dir, "none"))
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if want := fixture(t, "real-v2.0.0-pre-client", "version.txt"); string(out) != want {
		t.Errorf("ctrld-client --version %q, real %q", out, want)
	}
}
