//go:build linux

package realctrld

import (
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// The API rejects the token: the .deb stays half-configured and DNS keeps
// working; the admin fixes the token on the dashboard and finishes with
// dpkg --configure -a.
func systemdTokenRejected(b *box) {
	b.snapshot("resolv-before", resolvConf)
	api := b.startAPI(testenv.Canary, apiRejects)
	writeSettings(b)
	b.run("dpkg -i", slow, nil, "dpkg", "-i", shareInside+"/"+shareDeb)
	b.run("rejected"+querySep+"status", quick, nil, "dpkg-query", "-W", "-f=${Status}", "ctrld")
	recordSystemd(b, "rejected")
	api.setMode(apiAccepts)
	b.run("dpkg --configure -a", slow, nil, "dpkg", "--configure", "-a")
	b.run("fixed"+querySep+"status", quick, nil, "dpkg-query", "-W", "-f=${Status}", "ctrld")
	recordService(b, "fixed")
	recordJournal(b, "fixed")
}

func judgeTokenRejected(t *testing.T, s *systemdSandbox) {
	r := s.Report
	install := step(t, r, "dpkg -i")
	wantLineOnce(t, install, lineUnidentified)
	if install.Exit == 0 {
		t.Errorf("dpkg -i succeeded with a rejected token\n%s", install.Stdout)
	}
	if got := queryOut(t, r, "rejected", "status"); got != "install ok half-configured" {
		t.Errorf("after the rejection dpkg says %q", got)
	}
	wantNoActiveUnit(t, r, "rejected")
	configure := step(t, r, "dpkg --configure -a")
	wantLineOnce(t, configure, lineComplete)
	if configure.Exit != 0 || queryOut(t, r, "fixed", "status") != "install ok installed" {
		t.Errorf("dpkg --configure -a: exit %d\n%s%s", configure.Exit, configure.Stdout, configure.Stderr)
	}
	wantServiceRuns(t, r, "fixed")
	wantJournal(t, r, "fixed", unitName)
}
