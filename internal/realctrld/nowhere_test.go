//go:build linux

package realctrld_test

import (
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/realctrld"
)

// A route that goes nowhere: every packet is dropped, so ctrld's API
// calls hang until the wrapper's --timeout kills its whole tree.
func routeToNowhere(b *realctrld.Box) {
	installBinaries(b)
	b.Must("/usr/sbin/ip", "route", "add", "default", "dev", "lo")
	b.Run("wrapper start", quick, tokenEnv, wrapperBin, "start", "--timeout=5s")
	b.RecordProcesses("after-timeout")
}

func TestRouteToNowhereTimesOut(t *testing.T) {
	r := runScenario(t, "route-to-nowhere", 3*time.Minute)
	st := step(t, r, "wrapper start")
	wantOneLine(t, st, lineTimeout, 63)
	if st.Duration > 20*time.Second {
		t.Errorf("the 5 s bound took %s", st.Duration)
	}
	if left := ctrldProcesses(r.ProcessSnapshots["after-timeout"]); len(left) > 0 {
		t.Errorf("ctrld outlived the timeout: %v", left)
	}
}
