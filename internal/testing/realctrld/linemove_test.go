//go:build linux

package realctrld_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/contract"
	"github.com/ctrld-install/ctrld-install/internal/testing/realctrld"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

const (
	clientBin = "/usr/local/bin/ctrld-client"
	// getent asks the resolver resolv.conf names, ctrld's listener once
	// it runs; the fake upstream answers any name.
	getent   = "/usr/bin/getent"
	dnsProbe = "example.com"
)

// lineFiles are what says which line is installed: each line's init
// script and our binary of it.
var lineFiles = []string{"/etc/init.d/ctrld", "/etc/init.d/ctrld-client", ctrldBin, clientBin}

// lineMove, on sysv: v1 provisioned with the token, then the client line
// started with no token (the move reuses v1's uid), then v1 again (the
// move back), then a client start cut short, which puts v1 back.
func lineMove(b *realctrld.Box) {
	b.Snapshot("resolv-before", resolvConf)
	b.StartAPI(testenv.Canary, realctrld.Accept)
	b.Must("cp", realctrld.Share+"/ctrld", realctrld.Share+"/ctrld-client", realctrld.Share+"/ctrld-install", "/usr/local/bin/")
	b.Run("v1 start", slow, tokenEnv, wrapperBin, "start", "--ctrld", ctrldBin)
	b.Run("move", slow, nil, wrapperBin, "start", "--ctrld", clientBin)
	b.Run("client status", quick, nil, clientBin, "status")
	b.Run("dns after move", quick, nil, getent, "hosts", dnsProbe)
	b.Snapshot("moved", lineFiles...)
	b.RecordProcesses("moved")
	b.Must("cp", "--remove-destination", realctrld.Share+"/ctrld", "/usr/local/bin/")
	b.Run("move back", slow, nil, wrapperBin, "start", "--ctrld", ctrldBin)
	b.Run("v1 status", quick, nil, ctrldBin, "status")
	b.Run("dns after move back", quick, nil, getent, "hosts", dnsProbe)
	b.Snapshot("moved-back", lineFiles...)
	b.RecordProcesses("moved-back")
	b.Must("cp", "--remove-destination", realctrld.Share+"/ctrld-client", "/usr/local/bin/")
	b.Run("failed move", slow, nil, wrapperBin, "start", "--ctrld", clientBin, "--timeout", "1s")
	b.Shell("settle", quick, "sleep 5; cat /etc/resolv.conf; tail -5 /var/log/ctrld.log")
	b.Run("v1 status after failure", quick, nil, ctrldBin, "status")
	b.Run("dns after failure", quick, nil, getent, "hosts", dnsProbe)
	b.Snapshot("restored", lineFiles...)
	b.RecordProcesses("restored")
}

// lineDaemons are the daemons of either line that run.
func lineDaemons(procs []realctrld.Process) []string {
	var out []string
	for _, p := range procs {
		if len(p.Argv) > 1 && p.Argv[1] == "run" && slices.Contains(contract.CtrldNames, filepath.Base(p.Argv[0])) {
			out = append(out, filepath.Base(p.Argv[0]))
		}
	}
	return out
}

// wantOnly checks a snapshot and the processes under label: only the
// named line's script and binary, and one daemon, of that line.
func wantOnly(t *testing.T, r *realctrld.Report, label, line string) {
	t.Helper()
	snap, _ := r.SnapshotNamed(label)
	want := []string{"/etc/init.d/" + line, "/usr/local/bin/" + line}
	if got := snap.Existing(); !slices.Equal(slices.Sorted(slices.Values(got)), want) {
		t.Errorf("%s: files %v, want only %v", label, got, want)
	}
	if d := lineDaemons(r.ProcessSnapshots[label]); !slices.Equal(d, []string{line}) {
		t.Errorf("%s: daemons %v, want one %s", label, d, line)
	}
}

func TestMoveBetweenLinesOnSysv(t *testing.T) {
	t.Parallel()
	byName := map[string]realctrld.Ctrld{}
	for _, c := range realctrld.Binaries(t) {
		byName[binaryName(c)] = c
	}
	v1, client := byName[contract.Ctrld], byName[contract.CtrldClient]
	if v1.Path == "" || client.Path == "" {
		testenv.Unavailable(t, "%s names no ctrld of both lines (a ctrld and a ctrld-client)", realctrld.BinaryEnv)
	}
	s := realctrld.NewSandbox(t, "line-move")
	for name, path := range map[string]string{contract.Ctrld: v1.Path, contract.CtrldClient: client.Path} {
		if err := os.Link(path, filepath.Join(s.ShareDir(), name)); err != nil {
			t.Fatal(err)
		}
	}
	testenv.GoBuild(t, s.ShareDir(), shareWrapper, "./wrapper", "CGO_ENABLED=0", "GOOS=linux", "GOARCH=amd64")
	r := judgeScenario(t, s, 8*time.Minute)
	wantOneLine(t, step(t, r, "v1 start"), lineComplete, 0)
	wantOneLine(t, step(t, r, "move"), lineComplete, 0)
	if st := step(t, r, "client status"); st.Exit != 0 {
		t.Errorf("client status after the move: exit %d", st.Exit)
	}
	wantOnly(t, r, "moved", contract.CtrldClient)
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
	if st := step(t, r, "v1 status"); st.Exit != 0 {
		t.Errorf("v1 status after the move back: exit %d", st.Exit)
	}
	wantOnly(t, r, "moved-back", contract.Ctrld)
	wantOneLine(t, step(t, r, "failed move"), lineTimeout, 63)
	if st := step(t, r, "v1 status after failure"); st.Exit != 0 {
		t.Errorf("v1 status after the failed move: exit %d", st.Exit)
	}
	for _, name := range []string{"dns after move", "dns after move back", "dns after failure"} {
		if st := step(t, r, name); st.Exit != 0 {
			t.Errorf("%s: the device does not resolve (exit %d)\n%s", name, st.Exit, realctrld.Redact(step(t, r, "settle").Stdout))
		}
	}
	restored, _ := r.SnapshotNamed("restored")
	if !restored.File("/etc/init.d/ctrld").Exists || restored.File("/etc/init.d/ctrld-client").Exists {
		t.Errorf("after the failed move: %v", restored.Existing())
	}
	if d := lineDaemons(r.ProcessSnapshots["restored"]); !slices.Equal(d, []string{contract.Ctrld}) {
		t.Errorf("after the failed move: daemons %v, want v1's alone", d)
	}
}
