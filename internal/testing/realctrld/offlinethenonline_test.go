//go:build linux

package realctrld

import (
	"strings"
	"testing"
	"time"
)

// online puts the fixed addresses offline took back on lo.
func online(b *box) {
	for _, addr := range append([]string{apiAddr}, dohAddrs...) {
		b.must("/usr/sbin/ip", "addr", "add", addr+"/32", "dev", "lo")
	}
}

// The offline upgrade, then the network's return: the daemon that
// booted offline opens its control socket, and finishing the package
// (dpkg --configure -a) must move the service to the new binary within
// 30 s, whatever ctrld's own restart does.
func offlineUpgradeThenOnline(b *box) {
	installProvisionedDeb(b)
	bootOffline(b)
	b.run("dpkg -i (upgrade)", slow, nil, "dpkg", "-i", shareInside+"/"+shareUpgradeDeb)
	online(b)
	b.run("wait for the control socket", quick, nil, "/bin/sh", "-c", "i=0; while [ ! -S /run/ctrld_control.sock ] && [ $i -lt 120 ]; do sleep 0.5; i=$((i+1)); done; test -S /run/ctrld_control.sock")
	b.run("dpkg --configure -a", slow, nil, "dpkg", "--configure", "-a")
	b.run("daemon binaries", quick, nil, "/bin/sh", "-c", "for p in /proc/[0-9]*; do case \"$(cat $p/cmdline 2>/dev/null | tr '\\0' ' ')\" in *ctrld\\ run*) readlink $p/exe;; esac; done")
	b.run("dpkg --purge", slow, nil, "dpkg", "--purge", "ctrld")
	recordRemoval(b, "after-purge")
}

func TestOfflineUpgradeConvergesOnceOnline(t *testing.T) {
	forEachFirstLineCtrld(t, func(t *testing.T, ctrld ctrldBinary) {
		r := runScenario(t, ctrld, "offline-then-online", 8*time.Minute)
		wantBootedOffline(t, r)
		wantLineOnce(t, step(t, r, "dpkg -i (upgrade)"), lineReloadFailed)
		if st := step(t, r, "wait for the control socket"); st.Exit != 0 {
			t.Fatalf("the daemon never answered once online")
		}
		configure := step(t, r, "dpkg --configure -a")
		if configure.Duration > removalBound {
			t.Errorf("dpkg --configure -a took %s", configure.Duration)
		}
		exes := strings.Fields(step(t, r, "daemon binaries").Stdout)
		if len(exes) != 1 || exes[0] != "/usr/bin/ctrld" {
			t.Errorf("the daemons run %q, want the new /usr/bin/ctrld only", exes)
		}
		wantRemoved(t, r, "dpkg --purge", "after-purge")
	})
}
