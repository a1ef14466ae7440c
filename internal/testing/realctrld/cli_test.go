//go:build linux

package realctrld

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// cliOutputs are what a real ctrld prints, under its own binary name
// (ctrld or ctrld-client), before it touches the machine: its help, its
// version, and a start that fails for want of any network.
var cliOutputs = []struct {
	step, fixture string
	exit          int
}{
	{"help", "help.txt", 0},
	{"version", "version.txt", 0},
	{"start no network", "start-cd-org-no-network.txt", 1},
	{"status not installed", "status-not-installed.txt", 1},
}

// captureCLI runs the one ctrld in the share folder by the name it was
// given there.
func captureCLI(b *box) {
	for _, name := range names.CtrldNames {
		src := filepath.Join(shareInside, name)
		if _, err := os.Stat(src); err != nil {
			continue
		}
		bin := filepath.Join("/usr/local/bin", name)
		b.must("cp", src, bin)
		b.run("help", quick, nil, bin, "--help")
		b.run("version", quick, nil, bin, "--version")
		b.runSecret("start no network", quick, nil, bin, "start", "--cd-org="+testenv.Canary)
		b.run("status not installed", quick, nil, bin, "status")
		return
	}
	b.fail("no ctrld in the share folder")
}

// binaryName is the name a real ctrld is released under: its file's.
func binaryName(ctrld ctrldBinary) string {
	name := filepath.Base(ctrld.Path)
	for _, n := range names.CtrldNames {
		if n == name {
			return n
		}
	}
	return names.Ctrld
}

func TestRealCtrldCLIMatchesFixtures(t *testing.T) {
	forEachCtrld(t, func(t *testing.T, ctrld ctrldBinary) {
		s := prepareSandbox(t, "ctrld-cli")
		if err := os.Link(ctrld.Path, filepath.Join(s.shareDir(), binaryName(ctrld))); err != nil {
			t.Fatal(err)
		}
		r := judgeScenario(t, s, 3*time.Minute)
		for _, o := range cliOutputs {
			st := step(t, r, o.step)
			if st.Exit != o.exit {
				t.Errorf("%s: exit %d, want %d", o.step, st.Exit, o.exit)
			}
			if st.Stderr != "" {
				t.Errorf("%s wrote to stderr: %q", o.step, redact(st.Stderr))
			}
			compareFixture(t, ctrld, o.fixture, normalize(redact(st.Stdout)))
		}
	})
}
