//go:build linux

package realctrld

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

const (
	// getent asks the resolver resolv.conf names, ctrld's listener once
	// it runs; the fake upstream answers any name.
	getent   = "/usr/bin/getent"
	dnsProbe = "example.com"
)

// initSystem is where an init system keeps a line's service definition.
type initSystem struct {
	name       string
	definition func(line string) string
}

var (
	sysvInit    = initSystem{"sysv", func(line string) string { return "/etc/init.d/" + line }}
	systemdInit = initSystem{"systemd", func(line string) string { return "/etc/systemd/system/" + line + ".service" }}
)

// lineFiles are what says which line is installed: each line's service
// definition and our binary of it.
func (is initSystem) lineFiles() []string {
	var out []string
	for _, line := range names.CtrldNames {
		out = append(out, is.definition(line), filepath.Join("/usr/local/bin", line))
	}
	return out
}

func sysvLineMove(b *box) { lineMove(b, sysvInit) }

func systemdLineMove(b *box) { lineMove(b, systemdInit) }

// lineMove: v1 provisioned with the token, then the client line started
// with no token (the move reuses v1's uid), then v1 again (the move
// back), then a client start cut short, which puts v1 back.
func lineMove(b *box, is initSystem) {
	b.snapshot("resolv-before", resolvConf)
	b.startAPI(testenv.Canary, apiAccepts)
	b.must("cp", shareInside+"/ctrld", shareInside+"/ctrld-client", shareInside+"/ctrld-install", "/usr/local/bin/")
	b.run("v1 start", slow, tokenEnv, wrapperBin, "start", "--ctrld", ctrldBin)
	b.run("move", slow, nil, wrapperBin, "start", "--ctrld", clientBin)
	b.run("client status", quick, nil, clientBin, "status")
	b.run("dns after move", quick, nil, getent, "hosts", dnsProbe)
	recordLines(b, is, "moved")
	b.must("cp", "--remove-destination", shareInside+"/ctrld", "/usr/local/bin/")
	b.run("move back", slow, nil, wrapperBin, "start", "--ctrld", ctrldBin)
	b.run("v1 status", quick, nil, ctrldBin, "status")
	b.run("dns after move back", quick, nil, getent, "hosts", dnsProbe)
	recordLines(b, is, "moved-back")
	b.must("cp", "--remove-destination", shareInside+"/ctrld-client", "/usr/local/bin/")
	b.run("failed move", slow, nil, wrapperBin, "start", "--ctrld", clientBin, "--timeout", "1s")
	// v1's daemon, started again, answers once it has its listener.
	b.run("dns after failure", quick, nil, "/bin/sh", "-c", "for i in $(seq 30); do "+getent+" hosts "+dnsProbe+" >/dev/null && echo \"answered after $i tries\" && exit 0; sleep 1; done; exit 2")
	b.run("settle", quick, nil, "/bin/sh", "-c", "cat /etc/resolv.conf; tail -5 /var/log/ctrld.log /etc/controld/ctrld.log 2>/dev/null; true")
	b.run("v1 status after failure", quick, nil, ctrldBin, "status")
	recordLines(b, is, "restored")
}

func recordLines(b *box, is initSystem, label string) {
	b.snapshot(label, is.lineFiles()...)
	b.recordProcesses(label)
	if is.name == systemdInit.name {
		b.run(label+querySep+"list-units", quick, nil, "systemctl", "list-units", "--all", "--no-legend", "--plain", "--no-pager", "ctrld*")
	}
}

// lineDaemons are the daemons of either line that run.
func lineDaemons(procs []process) []string {
	var out []string
	for _, p := range procs {
		if len(p.Argv) > 1 && p.Argv[1] == "run" && slices.Contains(names.CtrldNames, filepath.Base(p.Argv[0])) {
			out = append(out, filepath.Base(p.Argv[0]))
		}
	}
	return out
}

// wantOnly checks what recordLines noted under label: only the named
// line's definition, our binaries of the lines in binaries, one daemon,
// of that line, and on systemd one unit, of that line.
func wantOnly(t *testing.T, r *report, is initSystem, label, line string, binaries ...string) {
	t.Helper()
	snap, _ := r.snapshotNamed(label)
	want := []string{is.definition(line)}
	for _, b := range binaries {
		want = append(want, "/usr/local/bin/"+b)
	}
	if got := snap.existing(); !slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(want))) {
		t.Errorf("%s: files %v, want only %v", label, got, want)
	}
	if d := lineDaemons(r.ProcessSnapshots[label]); !slices.Equal(d, []string{line}) {
		t.Errorf("%s: daemons %v, want one %s", label, d, line)
	}
	if is.name != systemdInit.name {
		return
	}
	if units := queryOut(t, r, label, "list-units"); !slices.Equal(unitNames(units), []string{line + ".service"}) {
		t.Errorf("%s: systemd knows %q, want %s.service alone", label, units, line)
	}
}

// judgeLineMove checks every step of lineMove.
func judgeLineMove(t *testing.T, r *report, is initSystem) {
	wantOneLine(t, step(t, r, "v1 start"), lineComplete, 0)
	wantOneLine(t, step(t, r, "move"), lineComplete, 0)
	wantOnly(t, r, is, "moved", names.CtrldClient, names.CtrldClient)
	// Only v1's start had the token: every move asked the API by uid.
	tokenAsks := 0
	for _, a := range r.API {
		if a.Kind == "prov_token" {
			tokenAsks++
		}
	}
	if tokenAsks != 1 {
		t.Errorf("the API was asked with a token %d times, want once (v1's start)", tokenAsks)
	}
	wantOneLine(t, step(t, r, "move back"), lineComplete, 0)
	wantOnly(t, r, is, "moved-back", names.Ctrld, names.Ctrld)
	wantOneLine(t, step(t, r, "failed move"), lineTimeout, 63)
	// The client's package is installed: its binary stays, v1 runs.
	wantOnly(t, r, is, "restored", names.Ctrld, names.Ctrld, names.CtrldClient)
	for _, name := range []string{"client status", "v1 status", "v1 status after failure"} {
		if st := step(t, r, name); st.Exit != 0 {
			t.Errorf("%s: exit %d", name, st.Exit)
		}
	}
	for _, name := range []string{"dns after move", "dns after move back", "dns after failure"} {
		if st := step(t, r, name); st.Exit != 0 {
			t.Errorf("%s: the device does not resolve (exit %d)\n%s", name, st.Exit, redact(step(t, r, "settle").Stdout))
		}
	}
}

// unitNames are the first fields of systemctl's plain unit list.
func unitNames(list string) []string {
	var out []string
	for _, line := range strings.Split(list, "\n") {
		if f := strings.Fields(line); len(f) > 0 {
			out = append(out, f[0])
		}
	}
	return out
}

// bothLines are the real ctrld of each line CTRLD_REAL names.
func bothLines(t *testing.T) (v1, client ctrldBinary) {
	t.Helper()
	byName := map[string]ctrldBinary{}
	for _, c := range ctrldBinaries(t) {
		byName[binaryName(c)] = c
	}
	v1, client = byName[names.Ctrld], byName[names.CtrldClient]
	if v1.Path == "" || client.Path == "" {
		testenv.Unavailable(t, "%s names no ctrld of both lines (a ctrld and a ctrld-client)", binaryEnv)
	}
	return v1, client
}

// shareLines links both ctrlds into share and builds the wrapper there.
func shareLines(t *testing.T, share string, v1, client ctrldBinary) {
	t.Helper()
	for name, path := range map[string]string{names.Ctrld: v1.Path, names.CtrldClient: client.Path} {
		if err := os.Link(path, filepath.Join(share, name)); err != nil {
			t.Fatal(err)
		}
	}
	testenv.GoBuild(t, share, shareWrapper, "./wrapper", "CGO_ENABLED=0", "GOOS=linux", "GOARCH=amd64")
}

func TestMoveBetweenLinesOnSysv(t *testing.T) {
	t.Parallel()
	v1, client := bothLines(t)
	s := prepareSandbox(t, "line-move")
	shareLines(t, s.shareDir(), v1, client)
	judgeLineMove(t, judgeScenario(t, s, 8*time.Minute), sysvInit)
}

func TestMoveBetweenLinesOnSystemd(t *testing.T) {
	t.Parallel()
	v1, client := bothLines(t)
	rootfs, err := systemdRootfs()
	if err != nil {
		t.Fatal(err)
	}
	s := newSystemdSandbox(t, "line-move", rootfs)
	shareLines(t, s.shareDir(), v1, client)
	err = s.boot()
	if err == nil {
		err = s.phase("systemd-line-move", phaseLimit)
	}
	if cerr := s.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	s.checkHost(t)
	s.checkSystemdCanary(t, settingsFile)
	for _, st := range s.Report.Steps {
		if !isQuery(st) {
			t.Logf("%-22s exit %3d  %6.1fs  %s", st.Name, st.Exit, st.Duration.Seconds(), summary(st))
		}
	}
	judgeLineMove(t, s.Report, systemdInit)
}
