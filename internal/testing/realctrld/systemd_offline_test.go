//go:build linux

package realctrld

import (
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// The hard case on systemd: a provisioned machine reboots with neither
// the API nor the DNS addresses, so the daemon starts without network
// and never opens its control socket; then the package goes, or is
// upgraded.

func systemdProvisionDeb(b *box) {
	provisionDeb(b)
}

func systemdProvisionRPM(b *box) {
	b.snapshot("resolv-before", resolvConf)
	b.must("rpm", "--initdb")
	b.startAPI(testenv.Canary, apiAccepts)
	writeSettings(b)
	// --nodeps: nothing in Debian's empty rpm database provides /bin/sh.
	b.run("rpm -i", slow, nil, "rpm", "-i", "--nodeps", shareInside+"/"+shareRPM)
	recordService(b, "installed")
}

func systemdOfflinePurge(b *box) {
	waitForDaemon(b)
	b.run("dpkg --purge", slow, nil, "dpkg", "--purge", "ctrld")
	recordSystemd(b, "after-purge")
	recordJournal(b, "after-purge")
}

func systemdOfflineErase(b *box) {
	waitForDaemon(b)
	b.run("rpm -e", slow, nil, "rpm", "-e", "ctrld")
	recordSystemd(b, "after-erase")
	recordJournal(b, "after-erase")
}

func systemdOfflineUpgrade(b *box) {
	waitForDaemon(b)
	b.run("dpkg -i (upgrade)", slow, nil, "dpkg", "-i", shareInside+"/"+shareUpgradeDeb)
	b.run("upgraded"+querySep+"version", quick, nil, "dpkg-query", "-W", "-f=${Version} ${Status}", "ctrld")
	b.run("upgraded"+querySep+"is-active", quick, nil, "systemctl", "is-active", unitName)
	b.recordProcesses("upgraded")
	b.run("dpkg --purge", slow, nil, "dpkg", "--purge", "ctrld")
	recordSystemd(b, "after-purge")
	recordJournal(b, "after-purge")
}

// wantHardCase checks that the reboot really came up offline with the
// daemon started and no control socket.
func wantHardCase(t *testing.T, r *report) {
	t.Helper()
	if len(ctrldProcesses(r.ProcessSnapshots["booted"])) == 0 {
		t.Fatal("systemd did not start the daemon at the offline boot")
	}
	booted, _ := r.snapshotNamed("booted")
	if booted.file("/run/ctrld_control.sock").Exists {
		t.Error("the daemon made its control socket offline: this is not the hard case")
	}
}

func judgeOfflinePurge(t *testing.T, s *systemdSandbox) {
	r := s.Report
	wantInstalled(t, r, "dpkg -i")
	wantHardCase(t, r)
	wantSystemdRemoval(t, r, "dpkg --purge", "after-purge")
}

func judgeOfflineErase(t *testing.T, s *systemdSandbox) {
	r := s.Report
	wantInstalled(t, r, "rpm -i")
	wantHardCase(t, r)
	wantSystemdRemoval(t, r, "rpm -e", "after-erase")
}

func judgeOfflineUpgrade(t *testing.T, s *systemdSandbox) {
	r := s.Report
	wantInstalled(t, r, "dpkg -i")
	wantHardCase(t, r)
	// Offline ctrld cannot restart: the new binary waits on disk, the
	// package stays half-configured and the service that ran goes on.
	upgrade := step(t, r, "dpkg -i (upgrade)")
	if upgrade.Duration > removalBound {
		t.Errorf("the offline upgrade took %s, more than %s", upgrade.Duration.Round(100*time.Millisecond), removalBound)
	}
	wantLineOnce(t, upgrade, lineReloadFailed)
	if got := queryOut(t, r, "upgraded", "version"); got != upgradeVersion+" install ok half-configured" {
		t.Errorf("after the upgrade dpkg says %q", got)
	}
	if got := queryOut(t, r, "upgraded", "is-active"); got != "active" {
		t.Errorf("the previous service does not run after the offline upgrade: is-active %q", got)
	}
	booted, upgraded := ctrldProcesses(r.ProcessSnapshots["booted"]), ctrldProcesses(r.ProcessSnapshots["upgraded"])
	if len(upgraded) != 1 || len(booted) != 1 || upgraded[0].Pid != booted[0].Pid {
		t.Errorf("the service running before the upgrade must still run: before %v, after %v", booted, upgraded)
	}
	wantSystemdRemoval(t, r, "dpkg --purge", "after-purge")
}
