//go:build linux

package realctrld

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// lineFootprint is where a ctrld of either line may put files of its
// own while its service runs.
var lineFootprint = []string{"/etc/init.d/*ctrld*", "/etc/rc2.d/*ctrld*", "/run/*ctrld*", "/var/log/*ctrld*", "/etc/controld/*"}

// captureFiles provisions the one ctrld in the share folder by its own
// name and notes what it put where, then uninstalls it and notes again.
func captureFiles(b *box) {
	for _, name := range names.CtrldNames {
		src := filepath.Join(shareInside, name)
		if _, err := os.Stat(src); err != nil {
			continue
		}
		bin := filepath.Join("/usr/local/bin", name)
		b.must("cp", src, bin)
		b.startAPI(testenv.Canary, apiAccepts)
		b.runSecret("start", slow, nil, bin, "start", "--cd-org="+testenv.Canary)
		b.snapshot("running", lineFootprint...)
		b.run("uninstall", slow, nil, bin, "uninstall")
		b.snapshot("uninstalled", lineFootprint...)
		return
	}
	b.fail("no ctrld in the share folder")
}

// The files each line's service puts in place are named as the contract
// says: the init script, the pid file and the sysv logs after the binary;
// the sockets and the home dir's log the same for both lines.
func TestRealCtrldFilesFollowTheContract(t *testing.T) {
	forEachCtrld(t, func(t *testing.T, ctrld ctrldBinary) {
		s := prepareSandbox(t, "ctrld-files")
		name := binaryName(ctrld)
		if err := os.Link(ctrld.Path, filepath.Join(s.shareDir(), name)); err != nil {
			t.Fatal(err)
		}
		r := judgeScenario(t, s, 4*time.Minute)
		running, _ := r.snapshotNamed("running")
		uninstalled, _ := r.snapshotNamed("uninstalled")
		t.Logf("%s running: %v", ctrld.Version, running.existing())
		t.Logf("%s after uninstall: %v", ctrld.Version, uninstalled.existing())
		if st := step(t, r, "start"); st.Exit != 0 {
			t.Fatalf("start: exit %d", st.Exit)
		}
		// The start socket is not there once start is done (v1.5.0).
		want := []string{"/etc/init.d/" + name}
		for _, f := range names.CtrldRunFiles(name) {
			if f != names.StartSocket {
				want = append(want, filepath.Join(names.RunDir, f))
			}
		}
		for _, f := range names.CtrldLogs(name) {
			want = append(want, filepath.Join(names.LogDir, f))
		}
		if version, _, _ := strings.Cut(ctrld.Version, "-linux-"); version != "v1.5.0" {
			want = append(want, filepath.Join(names.Home, names.CtrldHomeLogs(name)[0]))
		}
		for _, want := range want {
			if !running.file(want).Exists {
				t.Errorf("%s: no %s while it runs", ctrld.Version, want)
			}
		}
	})
}
