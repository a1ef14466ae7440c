//go:build linux

package realctrld

import (
	"strings"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// The .deb first with no settings (installed, not provisioned), then
// dpkg-reconfigure and a reinstall with the token in the settings file:
// the API rejects it, the admin fixes it on the dashboard and runs dpkg
// --configure -a.
func debRejectThenFix(b *box) {
	b.snapshot("resolv-before", resolvConf)
	api := b.startAPI(testenv.Canary, apiRejects)
	b.run("dpkg -i unconfigured", slow, nil, "dpkg", "-i", shareInside+"/ctrld.deb")
	writeSettings(b)
	b.run("dpkg-reconfigure", slow, nil, "dpkg-reconfigure", "ctrld")
	recordFailure(b, "after-reconfigure")
	b.run("status after reconfigure", quick, nil, "dpkg-query", "-W", "-f=${Status}", "ctrld")
	b.run("dpkg -i", slow, nil, "dpkg", "-i", shareInside+"/ctrld.deb")
	recordFailure(b, "after-install")
	b.run("status after failure", quick, nil, "dpkg-query", "-W", "-f=${Status}", "ctrld")
	api.setMode(apiAccepts)
	b.run("dpkg --configure -a", slow, nil, "dpkg", "--configure", "-a")
	b.run("status after fix", quick, nil, "dpkg-query", "-W", "-f=${Status}", "ctrld")
	b.run("ctrld status", quick, nil, "/usr/bin/ctrld", "status")
	b.run("dpkg --purge", slow, nil, "dpkg", "--purge", "ctrld")
	recordRemoval(b, "after-purge")
}

func TestDebRejectedTokenThenConfigure(t *testing.T) {
	forEachFirstLineCtrld(t, func(t *testing.T, ctrld ctrldBinary) {
		r := runScenario(t, ctrld, "deb-reject-then-fix", 8*time.Minute)
		if st := step(t, r, "dpkg -i unconfigured"); st.Exit != 0 || !strings.Contains(st.Stdout, "ctrld: installed, not provisioned") {
			t.Errorf("no settings: exit %d\n%s%s", st.Exit, st.Stdout, st.Stderr)
		}
		// dpkg-reconfigure fails with the line, but dpkg -l still says
		// installed: docs/linux.md tells admins to check the exit code.
		reconfigure := step(t, r, "dpkg-reconfigure")
		wantLineOnce(t, reconfigure, lineUnidentified)
		if reconfigure.Exit == 0 || step(t, r, "status after reconfigure").Stdout != "install ok installed" {
			t.Errorf("dpkg-reconfigure: exit %d, status %q", reconfigure.Exit, step(t, r, "status after reconfigure").Stdout)
		}
		install := step(t, r, "dpkg -i")
		wantLineOnce(t, install, lineUnidentified)
		if install.Exit == 0 || !strings.Contains(install.Stdout+install.Stderr, "exit status 64") {
			t.Errorf("dpkg -i: exit %d\n%s%s", install.Exit, install.Stdout, install.Stderr)
		}
		wantDNSAfterFailure(t, r, "after-reconfigure")
		wantDNSAfterFailure(t, r, "after-install")
		if got := step(t, r, "status after failure").Stdout; got != "install ok half-configured" {
			t.Errorf("after the failure: %q", got)
		}
		configure := step(t, r, "dpkg --configure -a")
		wantLineOnce(t, configure, lineComplete)
		if configure.Exit != 0 || step(t, r, "status after fix").Stdout != "install ok installed" {
			t.Errorf("configure -a: exit %d\n%s", configure.Exit, configure.Stdout)
		}
		if st := step(t, r, "ctrld status"); st.Exit != 0 {
			t.Errorf("ctrld status after the fix: exit %d", st.Exit)
		}
		if len(r.API) < 2 || r.API[1].Kind != "prov_token" || !r.API[1].TokenMatch || r.API[1].Status != 400 {
			t.Errorf("the API did not see the token first and reject it: %+v", r.API)
		}
		purge := step(t, r, "dpkg --purge")
		if purge.Exit != 0 || purge.Duration > removalBound {
			t.Errorf("purge: exit %d after %s\n%s", purge.Exit, purge.Duration, purge.Stdout)
		}
		wantLineOnce(t, purge, removalLine+" (at most 30 s)")
		wantNothingLeft(t, r, "after-purge")
		wantResolvRestored(t, r)
		if left := ctrldProcesses(r.ProcessSnapshots["after-purge"]); len(left) > 0 {
			t.Errorf("ctrld still runs after the purge: %v", left)
		}
	})
}
