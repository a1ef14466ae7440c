//go:build linux

package realctrld

import (
	"testing"
)

// A provisioned .deb install on systemd against the fake API, then a
// purge; a later phase looks again once RestartSec has passed.
func systemdDebSuccess(b *box) {
	provisionDeb(b)
	b.snapshot("installed", resolvConf, unitFile)
	b.run("dpkg --purge", slow, nil, "dpkg", "--purge", "ctrld")
	recordSystemd(b, "after-purge")
	recordJournal(b, "after-purge")
}

func systemdDebSuccessLater(b *box) {
	recordSystemd(b, "later")
	recordJournal(b, "later")
}

func judgeDebSuccess(t *testing.T, s *systemdSandbox) {
	r := s.Report
	wantInstalled(t, r, "dpkg -i")
	wantSystemdRemoval(t, r, "dpkg --purge", "after-purge")
	wantNoCtrldUnit(t, r, "later")
	wantJournal(t, r, "later", unitName)
}
