//go:build linux

package realctrld

import (
	"testing"
	"time"
)

// lineReloadFailed is the offline upgrade's line: the new binary is in
// place, the old service keeps running.
const lineReloadFailed = "provisioning failed: stage=package code=SERVICE_RELOAD_FAILED (exit 66)"

// An upgrade on a machine that booted offline: ctrld restart would wait
// minutes for a control socket that never comes. The upgrade must end
// within 30 s with the line once and leave the running service alone;
// the purge after it is bounded too.
func offlineUpgrade(b *box) {
	installProvisionedDeb(b)
	bootOffline(b)
	b.run("dpkg -i (upgrade)", slow, nil, "dpkg", "-i", shareInside+"/ctrld-upgrade.deb")
	b.recordProcesses("upgraded")
	b.snapshot("upgraded", resolvConf, "/etc/init.d/ctrld")
	b.run("status after upgrade", quick, nil, "dpkg-query", "-W", "-f=${Status} ${Version}", "ctrld")
	b.run("dpkg --purge", slow, nil, "dpkg", "--purge", "ctrld")
	recordRemoval(b, "after-purge")
}

func TestOfflineUpgradeKeepsTheService(t *testing.T) {
	forEachFirstLineCtrld(t, func(t *testing.T, ctrld ctrldBinary) {
		r := runScenario(t, ctrld, "offline-upgrade", 8*time.Minute)
		wantLineOnce(t, step(t, r, "dpkg -i"), lineComplete)
		wantBootedOffline(t, r)
		upgrade := step(t, r, "dpkg -i (upgrade)")
		if upgrade.Duration > removalBound {
			t.Errorf("the offline upgrade took %s", upgrade.Duration)
		}
		wantLineOnce(t, upgrade, lineReloadFailed)
		if got := step(t, r, "status after upgrade").Stdout; got != "install ok half-configured "+upgradeVersion {
			t.Errorf("after the upgrade: %q", got)
		}
		booted, upgraded := ctrldProcesses(r.ProcessSnapshots["booted"]), ctrldProcesses(r.ProcessSnapshots["upgraded"])
		if len(upgraded) != 1 || len(booted) != 1 || upgraded[0].Pid != booted[0].Pid {
			t.Errorf("the service running before the upgrade must still run: before %v, after %v", booted, upgraded)
		}
		snap, _ := r.snapshotNamed("upgraded")
		if !snap.file("/etc/init.d/ctrld").Exists {
			t.Error("the upgrade removed the service")
		}
		wantRemoved(t, r, "dpkg --purge", "after-purge")
	})
}
