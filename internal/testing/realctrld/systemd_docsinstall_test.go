//go:build linux

package realctrld

import (
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// ctrldDocsBin is where ctrld's own install instructions put the binary,
// another folder than the package's.
const ctrldDocsBin = ctrldBin

// A machine set up the way ctrld's docs do it (the binary in another
// folder, `ctrld start --cd=<resolver>` by hand), then our package: one
// service must run afterwards, on the packaged binary.
func systemdDocsInstall(b *box) {
	b.startAPI(testenv.Canary, apiAccepts)
	b.must("cp", shareInside+"/"+shareCtrld, ctrldDocsBin)
	b.run("ctrld start --cd (by hand)", slow, nil, ctrldDocsBin, "start", "--cd="+deviceUID)
	b.run("by hand"+querySep+"ExecStart", quick, nil, "systemctl", "show", unitName, "-p", "ExecStart", "--value")
	writeSettings(b)
	b.run("dpkg -i", slow, nil, "dpkg", "-i", shareInside+"/"+shareDeb)
	recordService(b, "packaged")
	b.run("packaged"+querySep+"list-units", quick, nil, "systemctl", "list-units", "--all", "--no-legend", "--plain", "--no-pager", "ctrld*")
	recordJournal(b, "packaged")
}

func judgeDocsInstall(t *testing.T, s *systemdSandbox) {
	r := s.Report
	if st := step(t, r, "ctrld start --cd (by hand)"); st.Exit != 0 || !strings.Contains(queryOut(t, r, "by hand", "ExecStart"), "path="+ctrldDocsBin+" ") {
		t.Fatalf("the install by hand did not set up a service on %s: exit %d\n%s", ctrldDocsBin, st.Exit, queryOut(t, r, "by hand", "ExecStart"))
	}
	install := step(t, r, "dpkg -i")
	wantLineOnce(t, install, lineComplete)
	if install.Exit != 0 {
		t.Errorf("dpkg -i: exit %d\n%s%s", install.Exit, install.Stdout, install.Stderr)
	}
	wantServiceRuns(t, r, "packaged")
	var active []string
	for _, line := range strings.Split(queryOut(t, r, "packaged", "list-units"), "\n") {
		if strings.Contains(line, " active ") {
			active = append(active, line)
		}
	}
	if len(active) != 1 {
		t.Errorf("want exactly one ctrld service active, got %q", active)
	}
	wantJournal(t, r, "packaged", unitName)
}
