//go:build linux

package realctrld

import (
	"strconv"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// The slow case: a machine provisioned earlier boots offline, so the
// daemon loops in its network probe before its control socket exists,
// and ctrld's own uninstall would wait minutes. The purge must end within
// the contract's 30 s, stop the daemon and restore resolv.conf.
func offlinePurge(b *box) {
	installProvisionedDeb(b)
	bootOffline(b)
	b.run("dpkg --purge", slow, nil, "dpkg", "--purge", "ctrld")
	recordRemoval(b, "after-purge")
}

// offlineErase is offlinePurge for the .rpm.
func offlineErase(b *box) {
	b.snapshot("resolv-before", resolvConf)
	b.must("rpm", "--initdb")
	b.startAPI(testenv.Canary, apiAccepts)
	writeSettings(b)
	// --nodeps: nothing in Debian's empty rpm database provides /bin/sh.
	b.run("rpm -i", slow, nil, "rpm", "-i", "--nodeps", shareInside+"/ctrld.rpm")
	bootOffline(b)
	b.run("rpm -e", slow, nil, "rpm", "-e", "ctrld")
	recordRemoval(b, "after-erase")
}

// bootOffline is a power loss, then a boot with no network: the daemon
// starts and never opens its control socket.
func bootOffline(b *box) {
	for _, pid := range b.pids("ctrld") {
		b.must("kill", "-9", strconv.Itoa(pid))
	}
	b.remove("/run/ctrld.pid")
	b.remove("/run/ctrld_control.sock")
	b.offline()
	b.run("boot: init.d start", quick, nil, "/etc/init.d/ctrld", "start")
	time.Sleep(2 * time.Second)
	b.recordProcesses("booted")
	b.snapshot("booted", resolvConf, "/run/ctrld_control.sock")
}

// wantBootedOffline checks bootOffline got the slow case.
func wantBootedOffline(t *testing.T, r *report) {
	t.Helper()
	if len(ctrldProcesses(r.ProcessSnapshots["booted"])) == 0 {
		t.Fatal("the daemon did not start at the offline boot")
	}
	booted, _ := r.snapshotNamed("booted")
	if booted.file("/run/ctrld_control.sock").Exists {
		t.Error("the daemon made its control socket offline: this is not the slow case")
	}
}

func TestOfflinePurgeIsBounded(t *testing.T) {
	testOfflineRemoval(t, "offline-purge", "dpkg -i", "dpkg --purge", "after-purge")
}

func TestOfflineEraseIsBounded(t *testing.T) {
	testOfflineRemoval(t, "offline-erase", "rpm -i", "rpm -e", "after-erase")
}

// testOfflineRemoval judges an offline removal scenario: a provisioned
// install, the slow offline boot, then a removal within the bound that
// leaves nothing.
func testOfflineRemoval(t *testing.T, scenario, install, removal, snapshot string) {
	forEachFirstLineCtrld(t, func(t *testing.T, ctrld ctrldBinary) {
		r := runScenario(t, ctrld, scenario, 8*time.Minute)
		wantLineOnce(t, step(t, r, install), lineComplete)
		wantBootedOffline(t, r)
		wantRemoved(t, r, removal, snapshot)
		wantLineOnce(t, step(t, r, removal), removalLine+" (at most 30 s)")
	})
}
