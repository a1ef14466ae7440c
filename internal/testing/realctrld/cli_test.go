//go:build linux

package realctrld_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/contract"
	"github.com/ctrld-install/ctrld-install/internal/testing/realctrld"
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
func captureCLI(b *realctrld.Box) {
	for _, name := range contract.CtrldNames {
		src := filepath.Join(realctrld.Share, name)
		if _, err := os.Stat(src); err != nil {
			continue
		}
		bin := filepath.Join("/usr/local/bin", name)
		b.Must("cp", src, bin)
		b.Run("help", quick, nil, bin, "--help")
		b.Run("version", quick, nil, bin, "--version")
		b.RunSecret("start no network", quick, nil, bin, "start", "--cd-org="+testenv.Canary)
		b.Run("status not installed", quick, nil, bin, "status")
		return
	}
	b.Fail("no ctrld in the share folder")
}

// binaryName is the name a real ctrld is released under: its file's.
func binaryName(ctrld realctrld.Ctrld) string {
	name := filepath.Base(ctrld.Path)
	for _, n := range contract.CtrldNames {
		if n == name {
			return n
		}
	}
	return contract.Ctrld
}

func TestRealCtrldCLIMatchesFixtures(t *testing.T) {
	forEachCtrld(t, func(t *testing.T, ctrld realctrld.Ctrld) {
		s := realctrld.NewSandbox(t, "ctrld-cli")
		if err := os.Link(ctrld.Path, filepath.Join(s.ShareDir(), binaryName(ctrld))); err != nil {
			t.Fatal(err)
		}
		r := judgeScenario(t, s, 3*time.Minute)
		for _, o := range cliOutputs {
			st := step(t, r, o.step)
			if st.Exit != o.exit {
				t.Errorf("%s: exit %d, want %d", o.step, st.Exit, o.exit)
			}
			if st.Stderr != "" {
				t.Errorf("%s wrote to stderr: %q", o.step, realctrld.Redact(st.Stderr))
			}
			compareFixture(t, ctrld, o.fixture, normalize(realctrld.Redact(st.Stdout)))
		}
	})
}
