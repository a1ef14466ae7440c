//go:build linux

package realctrld

import (
	"testing"
	"time"
)

// A route to nowhere on systemd: the wrapper's --timeout kills ctrld's
// tree, and nothing of a service is left active or failed.
func systemdRouteToNowhere(b *box) {
	b.snapshot("resolv-before", resolvConf)
	installBinaries(b)
	b.must("ip", "route", "add", "default", "dev", "lo")
	b.run("wrapper start --timeout=5s", quick, tokenEnv, wrapperBin, "start", "--timeout=5s")
	recordSystemd(b, "after-timeout")
	recordJournal(b, "after-timeout")
}

func judgeRouteToNowhere(t *testing.T, s *systemdSandbox) {
	r := s.Report
	st := step(t, r, "wrapper start --timeout=5s")
	wantOneLine(t, st, lineTimeout, 63)
	if st.Duration > 20*time.Second {
		t.Errorf("the 5 s bound took %s", st.Duration)
	}
	wantNoActiveUnit(t, r, "after-timeout")
	wantJournal(t, r, "after-timeout", "multi-user.target")
}
