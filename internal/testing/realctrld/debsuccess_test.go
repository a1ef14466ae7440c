//go:build linux

package realctrld

import (
	"strings"
	"testing"
	"time"
)

// A real provisioning from the .deb against the fake API, then an upgrade
// with no token left anywhere, then a purge.
func debSuccess(b *box) {
	installProvisionedDeb(b)
	b.run("ctrld status", quick, nil, "/usr/bin/ctrld", "status")
	b.recordProcesses("installed")
	b.snapshot("installed", resolvConf, "/etc/controld", "/etc/controld/ctrld.toml", "/etc/init.d/ctrld")
	b.remove(settingsFile)
	b.run("dpkg -i (upgrade)", slow, nil, "dpkg", "-i", shareInside+"/ctrld.deb")
	b.run("ctrld status after upgrade", quick, nil, "/usr/bin/ctrld", "status")
	b.recordProcesses("upgraded")
	b.run("dpkg --purge", slow, nil, "dpkg", "--purge", "ctrld")
	recordRemoval(b, "after-purge")
}

func TestDebProvisionsForReal(t *testing.T) {
	forEachFirstLineCtrld(t, func(t *testing.T, ctrld ctrldBinary) {
		r := runScenario(t, ctrld, "deb-success", 8*time.Minute)
		install := step(t, r, "dpkg -i")
		wantLineOnce(t, install, lineComplete)
		if install.Exit != 0 {
			t.Errorf("dpkg -i: exit %d\n%s", install.Exit, install.Stdout)
		}
		if st := step(t, r, "ctrld status"); st.Exit != 0 {
			t.Errorf("ctrld status: exit %d", st.Exit)
		}
		daemons := ctrldProcesses(r.ProcessSnapshots["installed"])
		if len(daemons) != 1 || !strings.Contains(strings.Join(daemons[0].Argv, " "), "run ") ||
			!strings.Contains(strings.Join(daemons[0].Argv, " "), "--cd="+deviceUID) {
			t.Errorf("want one daemon running with the uid, got %v", daemons)
		}
		installed, _ := r.snapshotNamed("installed")
		if !strings.Contains(installed.file(resolvConf).Content, "nameserver 127.0.0.1") {
			t.Errorf("resolv.conf does not point at ctrld: %q", installed.file(resolvConf).Content)
		}
		upgrade := step(t, r, "dpkg -i (upgrade)")
		wantLineOnce(t, upgrade, lineComplete)
		if upgrade.Exit != 0 || step(t, r, "ctrld status after upgrade").Exit != 0 {
			t.Errorf("upgrade: exit %d\n%s", upgrade.Exit, upgrade.Stdout)
		}
		provisions := 0
		for _, q := range r.API {
			if q.Kind == "prov_token" {
				provisions++
			}
		}
		if provisions != 1 {
			t.Errorf("the token was posted %d times; the upgrade must not provision again", provisions)
		}
		purge := step(t, r, "dpkg --purge")
		if purge.Exit != 0 || purge.Duration > removalBound {
			t.Errorf("purge: exit %d after %s\n%s", purge.Exit, purge.Duration, purge.Stdout)
		}
		wantNothingLeft(t, r, "after-purge")
		wantResolvRestored(t, r)
		if left := ctrldProcesses(r.ProcessSnapshots["after-purge"]); len(left) > 0 {
			t.Errorf("ctrld still runs after the purge: %v", left)
		}
	})
}
