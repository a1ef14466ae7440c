//go:build linux

package realctrld

import (
	"strings"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// The .rpm on an offline machine: %post fails and rpm only warns; once
// the network is back the admin runs ctrld-install start; then erase.
func rpmOfflineThenFix(b *box) {
	b.snapshot("resolv-before", resolvConf)
	b.must("rpm", "--initdb")
	writeSettings(b)
	// --nodeps: nothing in Debian's empty rpm database provides /bin/sh.
	b.run("rpm -i", slow, nil, "rpm", "-i", "--nodeps", shareInside+"/ctrld.rpm")
	recordFailure(b, "after-failure")
	b.run("rpm -q", quick, nil, "rpm", "-q", "ctrld")
	b.startAPI(testenv.Canary, apiAccepts)
	b.run("ctrld-install start", slow, nil, "/usr/bin/ctrld-install", "start")
	b.run("ctrld status", quick, nil, "/usr/bin/ctrld", "status")
	b.run("rpm -e", slow, nil, "rpm", "-e", "ctrld")
	recordRemoval(b, "after-erase")
}

func TestRpmOfflineThenRetry(t *testing.T) {
	forEachFirstLineCtrld(t, func(t *testing.T, ctrld ctrldBinary) {
		r := runScenario(t, ctrld, "rpm-offline-then-fix", 8*time.Minute)
		install := step(t, r, "rpm -i")
		wantLineOnce(t, install, lineUnidentified)
		if !strings.Contains(install.Stdout+install.Stderr, "scriptlet failed, exit status 64") {
			t.Errorf("rpm -i did not warn: exit %d\n%s%s", install.Exit, install.Stdout, install.Stderr)
		}
		wantDNSAfterFailure(t, r, "after-failure")
		if st := step(t, r, "rpm -q"); st.Exit != 0 {
			t.Errorf("rpm only warns, the package stays: %s", st.Stdout)
		}
		wantOneLine(t, step(t, r, "ctrld-install start"), lineComplete, 0)
		if st := step(t, r, "ctrld status"); st.Exit != 0 {
			t.Errorf("ctrld status after the retry: exit %d", st.Exit)
		}
		erase := step(t, r, "rpm -e")
		if erase.Exit != 0 || erase.Duration > removalBound {
			t.Errorf("erase: exit %d after %s\n%s%s", erase.Exit, erase.Duration, erase.Stdout, erase.Stderr)
		}
		wantLineOnce(t, erase, removalLine+" (at most 30 s)")
		wantNothingLeft(t, r, "after-erase")
		wantResolvRestored(t, r)
		if left := ctrldProcesses(r.ProcessSnapshots["after-erase"]); len(left) > 0 {
			t.Errorf("ctrld still runs after the erase: %v", left)
		}
	})
}
