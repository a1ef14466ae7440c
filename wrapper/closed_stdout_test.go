//go:build linux

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// A closed stdout (EPIPE) must not change the exit code, and stderr stays
// empty even then. It runs the release main.
func TestClosedStdoutKeepsExitCode(t *testing.T) {
	for _, tc := range []struct {
		name string
		exit string
		want int
	}{{"failure", "34", 34}, {"success", "0", 0}} {
		t.Run(tc.name, func(t *testing.T) {
			work := t.TempDir()
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			r.Close()
			var stderr bytes.Buffer
			cmd := exec.Command(filepath.Join(binDir, "ctrld-install-release"), "start",
				"--ctrld", filepath.Join(binDir, "ctrld"), "--home", filepath.Join(work, "home"),
				"--service-file", filepath.Join(work, "ctrld.service"), "--settings", filepath.Join(work, "none"))
			cmd.Env = append(os.Environ(),
				names.TokenEnv+"="+testenv.Canary,
				"FAKE_CTRLD_SCENARIO="+filepath.Join(work, "none"),
				"FAKE_CTRLD_START_EXIT="+tc.exit,
				"FAKE_CTRLD_HOME="+filepath.Join(work, "home"),
				"FAKE_CTRLD_SERVICE_FILE="+filepath.Join(work, "ctrld.service"))
			cmd.Stdout, cmd.Stderr = w, &stderr
			got, err := testenv.ExitCode(cmd.Run())
			w.Close()
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Fatalf("exit %d, want %d", got, tc.want)
			}
			if stderr.Len() != 0 {
				t.Fatalf("stderr: %q", stderr.String())
			}
		})
	}
}
