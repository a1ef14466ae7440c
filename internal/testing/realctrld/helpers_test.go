//go:build linux

package realctrld

import (
	"strings"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// The one lines the scenarios expect.
const (
	lineComplete     = "provisioning complete (exit 0)"
	lineUnidentified = "provisioning failed: stage=package code=CTRLD_UNIDENTIFIED (exit 64)"
	lineTimeout      = "provisioning failed: stage=package code=CTRLD_TIMEOUT (exit 63)"
	// removalLine is what the package's prerm says while it works.
	removalLine = "ctrld: stopping and uninstalling the ctrld service"
)

// Places inside the namespace.
const (
	settingsFile = "/etc/controld/ctrld-install.conf"
	resolvConf   = "/etc/resolv.conf"
	wrapperBin   = "/usr/local/bin/ctrld-install"
	ctrldBin     = "/usr/local/bin/ctrld"
)

// tokenEnv hands the canary to the wrapper the way an admin would.
var tokenEnv = []string{names.TokenEnv + "=" + testenv.Canary}

// footprint is everything ctrld, the wrapper or the packages may leave.
var footprint = []string{
	"/etc/init.d/ctrld", "/etc/rc?.d/*ctrld*", "/etc/systemd/system/ctrld.service",
	"/var/log/ctrld.log", "/var/log/ctrld.err",
	"/run/ctrld_control.sock", "/run/ctrld_start.sock", "/run/ctrld.pid",
	"/etc/controld", "/etc/controld/*", "/etc/resolv.pre-ctrld-backup.conf",
	"/usr/bin/ctrld", "/usr/bin/ctrld-install",
}

// Limits on one step inside.
const (
	quick = 2 * time.Minute
	slow  = 4 * time.Minute
)

func installBinaries(b *box) {
	b.must("cp", shareInside+"/ctrld", shareInside+"/ctrld-install", "/usr/local/bin/")
}

func writeSettings(b *box) {
	b.must("mkdir", "-p", "-m", "700", "/etc/controld")
	b.write(settingsFile, 0o600, "ProvisionToken="+testenv.Canary+"\n")
}

// installProvisionedDeb installs the .deb with the token in the settings
// file and an API that accepts it, after noting resolv.conf as it was.
func installProvisionedDeb(b *box) {
	b.snapshot("resolv-before", resolvConf)
	b.startAPI(testenv.Canary, apiAccepts)
	writeSettings(b)
	b.run("dpkg -i", slow, nil, "dpkg", "-i", shareInside+"/ctrld.deb")
}

// recordRemoval notes, under label, what the package's removal left:
// the footprint, resolv.conf and the processes still running.
func recordRemoval(b *box, label string) {
	b.snapshot(label, footprint...)
	b.snapshot("resolv-after", resolvConf)
	b.recordProcesses(label)
}

// removalBound is the contract's bound on a package removal and on an
// offline upgrade.
const removalBound = 30 * time.Second

// serviceFiles are what an init system knows ctrld's service by.
var serviceFiles = []string{"/etc/init.d/ctrld", "/etc/rc?.d/*ctrld*", "/etc/systemd/system/ctrld.service", "/etc/systemd/system/*.wants/ctrld.service"}

// recordFailure notes, after a failing step, what a failed install must
// not leave: resolv.conf changed, a ctrld service, a ctrld process.
func recordFailure(b *box, label string) {
	b.snapshot(label, append([]string{resolvConf}, serviceFiles...)...)
	b.recordProcesses(label)
}

// wantDNSAfterFailure checks a recordFailure: resolv.conf as before the
// scenario, no ctrld service known and no ctrld running.
func wantDNSAfterFailure(t *testing.T, r *report, label string) {
	t.Helper()
	before, _ := r.snapshotNamed("resolv-before")
	snap, ok := r.snapshotNamed(label)
	if !ok {
		t.Fatalf("no snapshot %s", label)
	}
	if b, a := before.file(resolvConf), snap.file(resolvConf); !b.Exists || a.Content != b.Content || a.Mode != b.Mode {
		t.Errorf("%s: resolv.conf changed by a failed install: before %q, after %q", label, b.Content, a.Content)
	}
	for _, f := range snap.Files[1:] {
		if f.Exists {
			t.Errorf("%s: a failed install left %s", label, f.Path)
		}
	}
	if left := ctrldProcesses(r.ProcessSnapshots[label]); len(left) > 0 {
		t.Errorf("%s: ctrld still runs after a failed install: %v", label, left)
	}
}

// runScenario runs one scenario, checks the canary everywhere and logs
// each step's line, exit code and time.
func runScenario(t *testing.T, ctrld ctrldBinary, name string, limit time.Duration) *report {
	t.Helper()
	return judgeScenario(t, newSandbox(t, ctrld, name), limit)
}

// judgeScenario runs a prepared scenario and checks it like runScenario.
func judgeScenario(t *testing.T, s *sandbox, limit time.Duration) *report {
	t.Helper()
	name := s.Name
	r := s.run(t, limit)
	s.checkCanary(t, settingsFile)
	for _, st := range r.Steps {
		t.Logf("%-22s exit %3d  %6.1fs  %s", st.Name, st.Exit, st.Duration.Seconds(), summary(st))
	}
	t.Logf("scenario %s took %.1fs", name, s.Took.Seconds())
	return r
}

// summary is a step's result line: the wrapper's line if it printed one.
func summary(st stepResult) string {
	for _, l := range strings.Split(st.Stdout, "\n") {
		if strings.HasPrefix(l, "provisioning ") {
			return l
		}
	}
	if st.Secret {
		return "(ctrld's own output, redacted)"
	}
	return ""
}

// step returns a step that must have run.
func step(t *testing.T, r *report, name string) stepResult {
	t.Helper()
	st, ok := r.stepNamed(name)
	if !ok {
		t.Fatalf("no step %s", name)
	}
	return st
}

// wantOneLine checks a wrapper run: exactly the line on stdout, nothing
// on stderr, the exit code the line names.
func wantOneLine(t *testing.T, st stepResult, line string, exit int) {
	t.Helper()
	if st.Stdout != line+"\n" || st.Stderr != "" || st.Exit != exit {
		t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit %d and %q", st.Name, st.Exit, st.Stdout, st.Stderr, exit, line)
	}
}

// wantLineOnce checks a package manager's output: the line exactly once.
func wantLineOnce(t *testing.T, st stepResult, line string) {
	t.Helper()
	if n := strings.Count(st.Stdout+st.Stderr, line+"\n"); n != 1 {
		t.Errorf("%s: %q appears %d times in:\n%s%s", st.Name, line, n, st.Stdout, st.Stderr)
	}
}

// wantRemoved checks a package removal step and what it left (the
// snapshot recordRemoval took): exit 0 within the contract's bound,
// nothing of ctrld left, resolv.conf as before, no ctrld running.
func wantRemoved(t *testing.T, r *report, stepName, snapshot string) {
	t.Helper()
	st := step(t, r, stepName)
	if st.Exit != 0 || st.Duration > removalBound {
		t.Errorf("%s: exit %d after %s\n%s%s", stepName, st.Exit, st.Duration, st.Stdout, st.Stderr)
	}
	wantNothingLeft(t, r, snapshot)
	wantResolvRestored(t, r)
	if left := ctrldProcesses(r.ProcessSnapshots[snapshot]); len(left) > 0 {
		t.Errorf("ctrld still runs after %s: %v", stepName, left)
	}
}

// wantNothingLeft checks a footprint snapshot: none of it exists.
func wantNothingLeft(t *testing.T, r *report, snapshot string) {
	t.Helper()
	snap, ok := r.snapshotNamed(snapshot)
	if !ok {
		t.Fatalf("no snapshot %s", snapshot)
	}
	if left := snap.existing(); len(left) > 0 {
		t.Errorf("%s: left behind %v", snapshot, left)
	}
}

// wantResolvRestored compares resolv.conf at the end with the start.
func wantResolvRestored(t *testing.T, r *report) {
	t.Helper()
	before, _ := r.snapshotNamed("resolv-before")
	after, _ := r.snapshotNamed("resolv-after")
	if b, a := before.file(resolvConf), after.file(resolvConf); !b.Exists || a.Content != b.Content || a.Mode != b.Mode {
		t.Errorf("resolv.conf not restored: before %o %q, after %o %q", b.Mode, b.Content, a.Mode, a.Content)
	}
}

// ctrldProcesses lists the processes running ctrld.
func ctrldProcesses(procs []process) []process {
	var out []process
	for _, p := range procs {
		if len(p.Argv) > 0 && strings.HasSuffix(p.Argv[0], "/ctrld") {
			out = append(out, p)
		}
	}
	return out
}
