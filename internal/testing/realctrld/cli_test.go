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

// lineFootprint is where a ctrld of either line may put files of its
// own while its service runs.
var lineFootprint = []string{"/etc/init.d/*ctrld*", "/etc/rc2.d/*ctrld*", "/run/*ctrld*", "/var/log/*ctrld*", "/etc/controld/*"}

// captureFiles provisions the one ctrld in the share folder by its own
// name and notes what it put where, then uninstalls it and notes again.
func captureFiles(b *realctrld.Box) {
	for _, name := range contract.CtrldNames {
		src := filepath.Join(realctrld.Share, name)
		if _, err := os.Stat(src); err != nil {
			continue
		}
		bin := filepath.Join("/usr/local/bin", name)
		b.Must("cp", src, bin)
		b.StartAPI(testenv.Canary, realctrld.Accept)
		b.RunSecret("start", slow, nil, bin, "start", "--cd-org="+testenv.Canary)
		b.Snapshot("running", lineFootprint...)
		b.Run("uninstall", slow, nil, bin, "uninstall")
		b.Snapshot("uninstalled", lineFootprint...)
		return
	}
	b.Fail("no ctrld in the share folder")
}

// The files each line's service puts in place are named as the contract
// says: the init script, the pid file and the sysv logs after the binary;
// the sockets and the home dir's log the same for both lines.
func TestRealCtrldFilesFollowTheContract(t *testing.T) {
	forEachCtrld(t, func(t *testing.T, ctrld realctrld.Ctrld) {
		s := realctrld.NewSandbox(t, "ctrld-files")
		name := binaryName(ctrld)
		if err := os.Link(ctrld.Path, filepath.Join(s.ShareDir(), name)); err != nil {
			t.Fatal(err)
		}
		r := judgeScenario(t, s, 4*time.Minute)
		running, _ := r.SnapshotNamed("running")
		uninstalled, _ := r.SnapshotNamed("uninstalled")
		t.Logf("%s running: %v", ctrld.Version, running.Existing())
		t.Logf("%s after uninstall: %v", ctrld.Version, uninstalled.Existing())
		if st := step(t, r, "start"); st.Exit != 0 {
			t.Fatalf("start: exit %d", st.Exit)
		}
		// The start socket is not there once start is done (v1.5.0).
		want := []string{"/etc/init.d/" + name}
		for _, f := range contract.CtrldRunFiles(name) {
			if f != contract.StartSocket {
				want = append(want, filepath.Join(contract.RunDir, f))
			}
		}
		for _, f := range contract.CtrldLogs(name) {
			want = append(want, filepath.Join(contract.LogDir, f))
		}
		if version, _, _ := strings.Cut(ctrld.Version, "-linux-"); version != "v1.5.0" {
			want = append(want, filepath.Join(contract.Home, contract.CtrldHomeLogs(name)[0]))
		}
		for _, want := range want {
			if !running.File(want).Exists {
				t.Errorf("%s: no %s while it runs", ctrld.Version, want)
			}
		}
	})
}

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
