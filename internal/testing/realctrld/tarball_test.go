//go:build linux

package realctrld

import (
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// install.sh from the tar.gz, the token in the environment: offline
// first, then again once the API answers.
func tarball(b *box) {
	b.snapshot("resolv-before", resolvConf)
	b.must("mkdir", "-p", "/root/dl")
	b.must("tar", "-xzf", shareInside+"/ctrld.tar.gz", "-C", "/root/dl")
	script := "/root/dl/ctrld_1.5.0_linux_amd64/install.sh"
	b.run("install.sh offline", slow, tokenEnv, "/bin/sh", script)
	recordFailure(b, "after-failure")
	b.startAPI(testenv.Canary, apiAccepts)
	b.run("install.sh online", slow, tokenEnv, "/bin/sh", script)
	b.run("ctrld status", quick, nil, "/usr/local/bin/ctrld", "status")
	b.run("ctrld-install last", quick, nil, "/usr/local/bin/ctrld-install", "last")
	b.recordProcesses("installed")
}

func TestTarballInstallSh(t *testing.T) {
	forEachCtrld(t, func(t *testing.T, ctrld ctrldBinary) {
		r := runScenario(t, ctrld, "tarball", 6*time.Minute)
		wantOneLine(t, step(t, r, "install.sh offline"), lineUnidentified, 64)
		wantDNSAfterFailure(t, r, "after-failure")
		wantOneLine(t, step(t, r, "install.sh online"), lineComplete, 0)
		if st := step(t, r, "ctrld status"); st.Exit != 0 {
			t.Errorf("ctrld status: exit %d", st.Exit)
		}
		wantOneLine(t, step(t, r, "ctrld-install last"), lineComplete, 0)
		if daemons := ctrldProcesses(r.ProcessSnapshots["installed"]); len(daemons) != 1 {
			t.Errorf("want one daemon, got %v", daemons)
		}
	})
}
