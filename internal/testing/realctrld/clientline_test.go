//go:build linux

package realctrld

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// Places of the client line in its scenario.
const (
	clientBin      = "/usr/local/bin/" + names.CtrldClient
	clientWrapper  = "/usr/local/bin/" + names.Wrapper
	clientSettings = names.LinuxSettings
)

// clientThroughTheWrapper has the wrapper provision the real client line,
// upgrade it (a reload through its own restart) and remove it.
func clientThroughTheWrapper(b *box) {
	b.must("cp", filepath.Join(shareInside, names.CtrldClient), filepath.Join(shareInside, names.Wrapper), "/usr/local/bin/")
	b.startAPI(testenv.Canary, apiAccepts)
	b.must("mkdir", "-p", "-m", "700", names.Home)
	b.write(clientSettings, 0o600, "ProvisionToken="+testenv.Canary+"\n")
	b.run("wrapper start", slow, nil, clientWrapper, "start", "--ctrld", clientBin)
	b.run("wrapper start (upgrade)", slow, nil, clientWrapper, "start", "--ctrld", clientBin)
	b.run("wrapper uninstall", slow, nil, clientWrapper, "uninstall", "--ctrld", clientBin)
	b.snapshot("uninstalled", lineFootprint...)
	b.recordProcesses("uninstalled")
}

// The client line is driven by its own name: provisioned, reloaded on
// upgrade through its control socket (the one both lines share), and
// removed with nothing of its service, sockets or home files left.
func TestRealClientLineThroughTheWrapper(t *testing.T) {
	forEachCtrld(t, func(t *testing.T, ctrld ctrldBinary) {
		if binaryName(ctrld) != names.CtrldClient {
			t.Skip("only the client line")
		}
		s := prepareSandbox(t, "client-wrapper")
		if err := os.Link(ctrld.Path, filepath.Join(s.shareDir(), names.CtrldClient)); err != nil {
			t.Fatal(err)
		}
		testenv.GoBuild(t, s.shareDir(), names.Wrapper, "./wrapper", "CGO_ENABLED=0")
		r := judgeScenario(t, s, 5*time.Minute)
		wantOneLine(t, step(t, r, "wrapper start"), lineComplete, 0)
		wantOneLine(t, step(t, r, "wrapper start (upgrade)"), lineComplete, 0)
		// ctrld's own uninstall needs 10 to 12 s online and is cut at
		// 11 s, so its exit code (the command's) may be a kill's; the
		// clean-up after it must leave nothing either way.
		st := step(t, r, "wrapper uninstall")
		if st.Duration > removalBound {
			t.Errorf("uninstall took %s", st.Duration)
		}
		t.Logf("wrapper uninstall: exit %d after %.1fs", st.Exit, st.Duration.Seconds())
		snap, _ := r.snapshotNamed("uninstalled")
		var left []string
		for _, f := range snap.existing() {
			// The sysv logs are the package's purge's to remove; the
			// settings file is the admin's; the tier's own folder stays.
			if !strings.HasPrefix(f, names.LogDir) && f != clientSettings && f != "/run/realctrld" {
				left = append(left, f)
			}
		}
		if len(left) > 0 {
			t.Errorf("left after uninstall: %v", left)
		}
		for _, p := range r.ProcessSnapshots["uninstalled"] {
			if len(p.Argv) > 0 && strings.HasSuffix(p.Argv[0], "/"+names.CtrldClient) {
				t.Errorf("ctrld-client still runs: %v", p.Argv)
			}
		}
	})
}
