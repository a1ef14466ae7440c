//go:build linux

package realctrld

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

var update = flag.Bool("update", false, "rewrite the real-ctrld output fixtures from this run")

// fixtureDir holds what one real ctrld printed, token replaced, for the
// fake ctrld to follow: testdata/ctrld-output/real-v1.5.0 for the
// binary in v1.5.0-linux-amd64.
func fixtureDir(ctrld ctrldBinary) string {
	version, _, _ := strings.Cut(ctrld.Version, "-linux-")
	return filepath.Join(testenv.RepoRoot(), "testdata", "ctrld-output", "real-"+version)
}

// A fresh install on a machine with no network at all: ctrld fails at
// once, prints the token in its fatal line, and leaves no identifier.
func noNetwork(b *box) {
	b.snapshot("resolv-before", resolvConf)
	installBinaries(b)
	b.run("wrapper start", quick, tokenEnv, wrapperBin, "start")
	recordFailure(b, "after-failure")
	b.snapshot("after-wrapper", "/etc/controld", "/run/ctrld_start.sock", "/etc/controld/ctrld-install-last-result")
	b.runSecret("ctrld start", quick, nil, ctrldBin, "start", "--cd-org="+testenv.Canary)
	b.snapshot("after-ctrld", "/run/ctrld_start.sock", "/etc/init.d/ctrld")
}

func TestFreshInstallWithNoNetwork(t *testing.T) {
	forEachCtrld(t, func(t *testing.T, ctrld ctrldBinary) {
		r := runScenario(t, ctrld, "no-network", 3*time.Minute)
		wantOneLine(t, step(t, r, "wrapper start"), lineUnidentified, 64)
		wantDNSAfterFailure(t, r, "after-failure")
		snap, _ := r.snapshotNamed("after-wrapper")
		if home := snap.file("/etc/controld"); os.FileMode(home.Mode).Perm() != 0o700 {
			t.Errorf("/etc/controld made %v", os.FileMode(home.Mode))
		}
		if last := snap.file("/etc/controld/ctrld-install-last-result"); last.Content != lineUnidentified+"\n" {
			t.Errorf("last-result record %q", last.Content)
		}
		if !syslogHas(r, lineUnidentified) {
			t.Errorf("the line is not in syslog: %q", r.Syslog)
		}
		// Both versions print the token in their fatal line (v2 with a
		// capital F).
		st := step(t, r, "ctrld start")
		out := redact(st.Stdout)
		if st.Exit != 1 || !strings.Contains(strings.ToLower(out), "failed to fetch resolver uid with provision token") || !strings.Contains(out, tokenPlaceholder) {
			t.Errorf("ctrld start: exit %d\n%s", st.Exit, out)
		}
		compareFixture(t, ctrld, "start-cd-org-no-network.txt", normalize(out))
	})
}

func syslogHas(r *report, line string) bool {
	for _, m := range r.Syslog {
		if strings.HasSuffix(strings.TrimSpace(m), line) {
			return true
		}
	}
	return false
}

// stamp is ctrld's timestamp, coloured.
var stamp = regexp.MustCompile(`[A-Z][a-z]{2} [ 0-9]\d \d\d:\d\d:\d\d\.\d{3}`)

// compareFixture checks ctrld's redacted output against the fixture,
// timestamps aside; -update rewrites the fixture.
func compareFixture(t *testing.T, ctrld ctrldBinary, name, got string) {
	t.Helper()
	path := filepath.Join(fixtureDir(ctrld), name)
	if *update {
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("fixture: %v (run with -update to record it)", err)
	}
	if norm := func(s string) string { return stamp.ReplaceAllString(s, "<TIME>") }; norm(got) != norm(string(want)) {
		t.Errorf("ctrld's output differs from %s:\ngot  %q\nwant %q", name, got, want)
	}
}
