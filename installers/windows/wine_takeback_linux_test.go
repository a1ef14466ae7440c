package windows

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testenv"
)

// Something a user put at the record folder's path before the first
// install does not block it: the wrapper moves it aside, unread, and
// records in a folder of its own. (Wine runs everything as one account,
// so of the user's moves only a file in the folder's place can be played
// here; a folder and a junction are played on the hosted Windows runner.)
func TestWineInstallTakesBackAPlantedRecordPath(t *testing.T) {
	msi, _ := builtMSI(t, ArchX64, "1.2.3")
	w := newWine(t)
	const planted = "provisioning failed: stage=listener code=LISTENER_BIND_FAILED (exit 41)\n"
	if err := os.WriteFile(w.path(`C:\ProgramData\ControlD`), []byte(planted), 0o666); err != nil {
		t.Fatal(err)
	}
	out, code := w.run("msiexec", "/i", msi, "/qn", "/l*v", msiLog, "PROVISION_TOKEN="+testenv.Canary)
	if code != 0 {
		t.Fatalf("msiexec /i over a planted record path: exit %d\n%s\n%s", code, out, w.read(msiLog))
	}
	if got := w.read(lastResult); got != "provisioning complete (exit 0)\n" {
		t.Fatalf("last result %q", got)
	}
	aside, _ := filepath.Glob(w.path(`C:\ProgramData\ControlD.untrusted-*`))
	if len(aside) != 1 {
		t.Fatalf("moved aside: %v", aside)
	}
	if data, _ := os.ReadFile(aside[0]); string(data) != planted {
		t.Fatalf("the planted file changed: %q", data)
	}
	w.noCanaryLeftBehind(msiLog)
}
