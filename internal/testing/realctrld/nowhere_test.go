//go:build linux

package realctrld

import (
	"testing"
	"time"
)

// A route that goes nowhere: every packet is dropped, so ctrld's API
// calls hang until the wrapper's --timeout kills its whole tree.
func routeToNowhere(b *box) {
	b.snapshot("resolv-before", resolvConf)
	installBinaries(b)
	b.must("/usr/sbin/ip", "route", "add", "default", "dev", "lo")
	b.run("wrapper start", quick, tokenEnv, wrapperBin, "start", "--timeout=5s")
	recordFailure(b, "after-timeout")
}

func TestRouteToNowhereTimesOut(t *testing.T) {
	forEachCtrld(t, func(t *testing.T, ctrld ctrldBinary) {
		r := runScenario(t, ctrld, "route-to-nowhere", 3*time.Minute)
		st := step(t, r, "wrapper start")
		wantOneLine(t, st, lineTimeout, 63)
		if st.Duration > 20*time.Second {
			t.Errorf("the 5 s bound took %s", st.Duration)
		}
		wantDNSAfterFailure(t, r, "after-timeout")
	})
}
