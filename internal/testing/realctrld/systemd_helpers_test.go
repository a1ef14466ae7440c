//go:build linux

package realctrld

import (
	"strings"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// systemdPhases run inside the booted container; each systemd_*_test.go
// file holds a scenario's phases and its judge.
var systemdPhases = map[string]scenario{
	"systemd-deb-success":           systemdDebSuccess,
	"systemd-deb-success-later":     systemdDebSuccessLater,
	"systemd-provision-deb":         systemdProvisionDeb,
	"systemd-provision-rpm":         systemdProvisionRPM,
	"systemd-offline-purge":         systemdOfflinePurge,
	"systemd-offline-erase":         systemdOfflineErase,
	"systemd-offline-upgrade":       systemdOfflineUpgrade,
	"systemd-token-rejected":        systemdTokenRejected,
	"systemd-route-to-nowhere":      systemdRouteToNowhere,
	"systemd-docs-install-then-deb": systemdDocsInstall,
	"systemd-line-move":             systemdLineMove,
}

// ctrld's unit and what enables it.
const (
	unitName = "ctrld.service"
	unitFile = "/etc/systemd/system/" + unitName
)

// systemdFootprint adds what ctrld leaves on systemd (and v2's log in its
// home folder) to the footprint.
var systemdFootprint = append(append([]string{}, footprint...),
	"/etc/systemd/system/*.wants/ctrld*", "/lib/systemd/system/ctrld*", "/etc/controld/ctrld.log")

// pastRestartSec is longer than the unit's RestartSec=120: a unit that
// survived a removal has restarted ctrld by then.
const pastRestartSec = 130 * time.Second

// querySep separates a label from the query in the name of a step that
// only looks (systemctl, find, journalctl); the table leaves those out.
const querySep = ": "

func isQuery(st stepResult) bool { return strings.Contains(st.Name, querySep) }

// recordSystemd notes, under label, what systemd and the file system
// know of ctrld: units in any state, unit files, failed units, the
// system's state, files named after ctrld in /etc, /var and /run, the
// footprint, resolv.conf and the processes.
func recordSystemd(b *box, label string) {
	q := func(what string, argv ...string) { b.run(label+querySep+what, quick, nil, argv...) }
	q("list-units", "systemctl", "list-units", "--all", "--no-legend", "--plain", "--no-pager", "ctrld*")
	q("list-unit-files", "systemctl", "list-unit-files", "--no-legend", "--plain", "--no-pager", "ctrld*")
	q("failed", "systemctl", "--failed", "--no-legend", "--plain", "--no-pager")
	q("is-system-running", "systemctl", "is-system-running")
	q("named ctrld", "find", "/etc", "/var", "/run", "-path", insideDir, "-prune", "-o", "-name", "*ctrld*", "-print")
	b.snapshot(label, systemdFootprint...)
	b.snapshot(label+" resolv.conf", resolvConf)
	b.recordProcesses(label)
}

// recordJournal keeps the container's journal, so the canary check reads
// it too (wantJournal makes sure there was one to read).
func recordJournal(b *box, label string) {
	b.run(label+querySep+"journal", quick, nil, "journalctl", "--no-pager", "-o", "cat")
}

// recordService notes the unit's state and ExecStart.
func recordService(b *box, label string) {
	b.run(label+querySep+"is-active", quick, nil, "systemctl", "is-active", unitName)
	b.run(label+querySep+"ExecStart", quick, nil, "systemctl", "show", unitName, "-p", "ExecStart", "--value")
	b.recordProcesses(label + " service")
}

// provisionDeb installs the .deb with the token in the settings file and
// an API that accepts it, after noting resolv.conf.
func provisionDeb(b *box) {
	installProvisionedDeb(b)
	recordService(b, "installed")
}

// waitForDaemon waits, bounded, until systemd has started ctrld's daemon
// at boot.
func waitForDaemon(b *box) {
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(500 * time.Millisecond) {
		if len(b.pids("ctrld")) > 0 {
			break
		}
	}
	time.Sleep(2 * time.Second)
	b.recordProcesses("booted")
	b.snapshot("booted", resolvConf, "/run/ctrld_control.sock")
	b.run("booted"+querySep+"is-active", quick, nil, "systemctl", "is-active", unitName)
}

// queryOut is a query step's standard output, trimmed.
func queryOut(t *testing.T, r *report, label, what string) string {
	t.Helper()
	return strings.TrimSpace(step(t, r, label+querySep+what).Stdout)
}

// wantNoCtrldUnit checks a recordSystemd label: systemd knows no ctrld
// unit in any state and no unit file, the system is not degraded because
// of ctrld, no ctrld process runs and nothing of ctrld's is left.
func wantNoCtrldUnit(t *testing.T, r *report, label string) {
	t.Helper()
	if out := queryOut(t, r, label, "list-units"); out != "" {
		t.Errorf("%s: systemd still knows a ctrld unit:\n%s", label, out)
	}
	if out := queryOut(t, r, label, "list-unit-files"); strings.Contains(out, "ctrld") {
		t.Errorf("%s: ctrld unit files are left:\n%s", label, out)
	}
	if out := queryOut(t, r, label, "failed"); strings.Contains(out, "ctrld") {
		t.Errorf("%s: a ctrld unit failed, the system is degraded because of it:\n%s", label, out)
	}
	if out := queryOut(t, r, label, "named ctrld"); out != "" {
		t.Errorf("%s: files of ctrld's left in /etc, /var or /run:\n%s", label, out)
	}
	wantNothingLeft(t, r, label)
	if left := ctrldProcesses(r.ProcessSnapshots[label]); len(left) > 0 {
		t.Errorf("%s: ctrld still runs: %v", label, left)
	}
}

// wantNoActiveUnit is the failed-install check: no ctrld unit active,
// enabled or failed, no ctrld process, resolv.conf as before.
func wantNoActiveUnit(t *testing.T, r *report, label string) {
	t.Helper()
	for _, line := range strings.Split(queryOut(t, r, label, "list-units"), "\n") {
		if strings.Contains(line, " active ") || strings.Contains(line, " failed ") || strings.Contains(line, " activating ") {
			t.Errorf("%s: a ctrld unit is left active or failed: %s", label, line)
		}
	}
	if out := queryOut(t, r, label, "list-unit-files"); strings.Contains(out, "enabled") {
		t.Errorf("%s: a ctrld unit is left enabled:\n%s", label, out)
	}
	if left := ctrldProcesses(r.ProcessSnapshots[label]); len(left) > 0 {
		t.Errorf("%s: ctrld still runs: %v", label, left)
	}
	wantResolvAsBefore(t, r, label)
}

// wantResolvAsBefore compares resolv.conf under label with its state
// before the install, byte for byte.
func wantResolvAsBefore(t *testing.T, r *report, label string) {
	t.Helper()
	before, _ := r.snapshotNamed("resolv-before")
	after, _ := r.snapshotNamed(label + " resolv.conf")
	if b, a := before.file(resolvConf), after.file(resolvConf); !b.Exists || a.Exists != b.Exists || a.Content != b.Content || a.Mode != b.Mode || a.Link != b.Link {
		t.Errorf("%s: resolv.conf is not as before: before %o %q %q, now %o %q %q", label, b.Mode, b.Link, b.Content, a.Mode, a.Link, a.Content)
	}
}

// wantServiceRuns checks recordService: the unit is active, runs the
// packaged binary with the resolver uid and never the token, and one
// ctrld daemon runs.
func wantServiceRuns(t *testing.T, r *report, label string) {
	t.Helper()
	if got := queryOut(t, r, label, "is-active"); got != "active" {
		t.Errorf("%s: systemctl is-active ctrld: %q", label, got)
	}
	exec := queryOut(t, r, label, "ExecStart")
	if !strings.Contains(exec, "path=/usr/bin/ctrld ") || !strings.Contains(exec, "--cd="+deviceUID) || strings.Contains(exec, testenv.Canary) {
		t.Errorf("%s: ExecStart does not run /usr/bin/ctrld with the resolver uid: %s", label, redact(exec))
	}
	daemons := ctrldProcesses(r.ProcessSnapshots[label+" service"])
	if len(daemons) != 1 || daemons[0].Argv[0] != "/usr/bin/ctrld" {
		t.Errorf("%s: want one daemon running /usr/bin/ctrld, got %v", label, daemons)
	}
}

// wantInstalled checks a provisioning step and recordService "installed":
// the line once, exit 0, the service running.
func wantInstalled(t *testing.T, r *report, name string) {
	t.Helper()
	install := step(t, r, name)
	wantLineOnce(t, install, lineComplete)
	if install.Exit != 0 {
		t.Errorf("%s: exit %d\n%s%s", name, install.Exit, install.Stdout, install.Stderr)
	}
	wantServiceRuns(t, r, "installed")
}

// wantSystemdRemoval checks a removal step and what recordSystemd and
// recordJournal saw under label afterwards: within the bound, nothing of
// ctrld's left, resolv.conf as before the install.
func wantSystemdRemoval(t *testing.T, r *report, name, label string) {
	t.Helper()
	wantWithin(t, step(t, r, name), 0, removalBound)
	wantNoCtrldUnit(t, r, label)
	wantResolvAsBefore(t, r, label)
	wantJournal(t, r, label, unitName)
}

// wantWithin checks a step's exit code and the contract's time bound.
func wantWithin(t *testing.T, st stepResult, exit int, bound time.Duration) {
	t.Helper()
	if st.Exit != exit || st.Duration > bound {
		t.Errorf("%s: exit %d after %s, want exit %d within %s\n%s%s", st.Name, st.Exit, st.Duration.Round(100*time.Millisecond), exit, bound, st.Stdout, st.Stderr)
	}
}

// wantJournal checks that a recordJournal label holds the journal, with
// a line that mentions what the scenario did: the canary check read
// something.
func wantJournal(t *testing.T, r *report, label, mention string) {
	t.Helper()
	if out := queryOut(t, r, label, "journal"); !strings.Contains(out, mention) {
		t.Errorf("%s: the journal (%d bytes) has no line about %s", label, len(out), mention)
	}
}
