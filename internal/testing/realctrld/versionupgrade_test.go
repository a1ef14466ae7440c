//go:build linux

package realctrld

import (
	"strings"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// A fleet moving to the next ctrld: a provisioned install of one version,
// then the package of the next (at a higher package version), online,
// then a purge that leaves nothing of either.
func versionUpgrade(b *box) {
	installProvisionedDeb(b)
	b.recordProcesses("installed")
	b.remove(settingsFile)
	b.run("dpkg -i (next)", slow, nil, "dpkg", "-i", shareInside+"/ctrld-next.deb")
	b.run("ctrld --version", quick, nil, "/usr/bin/ctrld", "--version")
	b.run("ctrld status", quick, nil, "/usr/bin/ctrld", "status")
	b.recordProcesses("upgraded")
	b.snapshot("upgraded", resolvConf, "/etc/controld/ctrld.log", "/var/log/ctrld.log", "/var/log/ctrld.err", "/etc/init.d/ctrld")
	b.run("dpkg --purge", slow, nil, "dpkg", "--purge", "ctrld")
	recordRemoval(b, "after-purge")
}

func TestPackageUpgradeToTheNextCtrld(t *testing.T) {
	t.Parallel()
	all := firstLineBinaries(t)
	if len(all) < 2 {
		testenv.Unavailable(t, "%s names one ctrld; this scenario upgrades from the first to the next", binaryEnv)
	}
	for i := range all[:len(all)-1] {
		from, to := all[i], all[i+1]
		t.Run(from.Version+"-to-"+to.Version, func(t *testing.T) {
			s := newSandbox(t, from, "version-upgrade")
			shareNext(t, s, to)
			r := judgeScenario(t, s, 8*time.Minute)
			wantLineOnce(t, step(t, r, "dpkg -i"), lineComplete)
			upgrade := step(t, r, "dpkg -i (next)")
			wantLineOnce(t, upgrade, lineComplete)
			if upgrade.Exit != 0 {
				t.Errorf("upgrade: exit %d\n%s%s", upgrade.Exit, upgrade.Stdout, upgrade.Stderr)
			}
			if v := step(t, r, "ctrld --version").Stdout; !strings.Contains(v, strings.Split(to.Version, "-linux-")[0]) {
				t.Errorf("the packaged ctrld is %q", v)
			}
			if st := step(t, r, "ctrld status"); st.Exit != 0 {
				t.Errorf("ctrld status after the upgrade: exit %d", st.Exit)
			}
			if daemons := ctrldProcesses(r.ProcessSnapshots["upgraded"]); len(daemons) != 1 {
				snap, _ := r.snapshotNamed("upgraded")
				t.Errorf("want one daemon after the upgrade, got %v; its logs:\n%s\n%s\n%s", daemons,
					redact(snap.file("/etc/controld/ctrld.log").Content), redact(snap.file("/var/log/ctrld.log").Content), redact(snap.file("/var/log/ctrld.err").Content))
			}
			wantRemoved(t, r, "dpkg --purge", "after-purge")
		})
	}
}
