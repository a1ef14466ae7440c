//go:build linux

package realctrld_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/contract"
	"github.com/ctrld-install/ctrld-install/internal/testing/realctrld"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// Places of the client line in its scenario.
const (
	clientBin      = "/usr/local/bin/" + contract.CtrldClient
	clientWrapper  = "/usr/local/bin/" + contract.Wrapper
	clientSettings = contract.LinuxSettings
)

// clientThroughTheWrapper has the wrapper provision the real client line,
// upgrade it (a reload through its own restart) and remove it.
func clientThroughTheWrapper(b *realctrld.Box) {
	b.Must("cp", filepath.Join(realctrld.Share, contract.CtrldClient), filepath.Join(realctrld.Share, contract.Wrapper), "/usr/local/bin/")
	b.StartAPI(testenv.Canary, realctrld.Accept)
	b.Must("mkdir", "-p", "-m", "700", contract.Home)
	b.Write(clientSettings, 0o600, "ProvisionToken="+testenv.Canary+"\n")
	b.Run("wrapper start", slow, nil, clientWrapper, "start", "--ctrld", clientBin)
	b.Run("wrapper start (upgrade)", slow, nil, clientWrapper, "start", "--ctrld", clientBin)
	b.Run("wrapper uninstall", slow, nil, clientWrapper, "uninstall", "--ctrld", clientBin)
	b.Snapshot("uninstalled", lineFootprint...)
	b.RecordProcesses("uninstalled")
}

// The client line is driven by its own name: provisioned, reloaded on
// upgrade through its control socket (the one both lines share), and
// removed with nothing of its service, sockets or home files left.
func TestRealClientLineThroughTheWrapper(t *testing.T) {
	forEachCtrld(t, func(t *testing.T, ctrld realctrld.Ctrld) {
		if binaryName(ctrld) != contract.CtrldClient {
			t.Skip("only the client line")
		}
		s := realctrld.NewSandbox(t, "client-wrapper")
		if err := os.Link(ctrld.Path, filepath.Join(s.ShareDir(), contract.CtrldClient)); err != nil {
			t.Fatal(err)
		}
		testenv.GoBuild(t, s.ShareDir(), contract.Wrapper, "./wrapper", "CGO_ENABLED=0")
		r := judgeScenario(t, s, 5*time.Minute)
		wantOneLine(t, step(t, r, "wrapper start"), lineComplete, 0)
		wantOneLine(t, step(t, r, "wrapper start (upgrade)"), lineComplete, 0)
		if st := step(t, r, "wrapper uninstall"); st.Exit != 0 || st.Duration > removalBound {
			t.Errorf("uninstall: exit %d after %s", st.Exit, st.Duration)
		}
		snap, _ := r.SnapshotNamed("uninstalled")
		var left []string
		for _, f := range snap.Existing() {
			// The sysv logs are the package's purge's to remove; the
			// settings file is the admin's; the tier's own folder stays.
			if !strings.HasPrefix(f, contract.LogDir) && f != clientSettings && f != "/run/realctrld" {
				left = append(left, f)
			}
		}
		if len(left) > 0 {
			t.Errorf("left after uninstall: %v", left)
		}
		for _, p := range r.ProcessSnapshots["uninstalled"] {
			if len(p.Argv) > 0 && strings.HasSuffix(p.Argv[0], "/"+contract.CtrldClient) {
				t.Errorf("ctrld-client still runs: %v", p.Argv)
			}
		}
	})
}
