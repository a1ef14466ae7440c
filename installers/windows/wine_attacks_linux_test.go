// Attacks on the MSI by a local user or through its properties, played
// under Wine.

package windows

import (
	"os"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// A property that would break out of its quoted argument is refused by a
// launch condition: msiexec fails before the provisioning action runs, so
// neither the wrapper nor the program the injected flags name ever runs.
func TestWineRefusesAPropertyThatBreaksOutOfItsQuotes(t *testing.T) {
	t.Parallel()
	msi, _ := builtMSI(t, ArchX64, "1.2.3")
	w := newWine(t)
	evil, err := os.ReadFile(winBinaries.ctrld)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(w.path(`C:\evil.exe`), evil, 0o755); err != nil {
		t.Fatal(err)
	}
	w.scenario("record=" + calls)
	for name, props := range map[string][]string{
		"a quote":            {`CUSTOM_HOSTNAME=win" --ctrld C:\evil.exe --home "C:\evil`},
		"a final backslash":  {`CUSTOM_HOSTNAME=win\`, `INTERCEPT_MODE= --ctrld=C:/evil.exe `},
		"a quote in a token": {"PROVISION_TOKEN=" + testenv.Canary + `" --ctrld "C:\evil.exe`},
		"a quote in dev":     {`USE_DEV_ENVIRONMENT=1" --ctrld "C:\evil.exe`},
	} {
		args := append([]string{"msiexec", "/i", msi, "/qn", "/l*v", msiLog, "PROVISION_TOKEN=" + testenv.Canary}, props...)
		out, code := w.run(args...)
		if code != exitInstallFailure && code != exitWineFailure {
			t.Errorf("%s: msiexec exit %d, want 1603 (Windows) or 1627 (Wine), cut to 8 bits\n%s", name, code, out)
		}
		// Wine logs no launch condition's message under /qn; that the
		// install stopped there shows in the actions it began.
		if log := w.read(msiLog); !strings.Contains(log, ": LaunchConditions.") || strings.Contains(log, ": CostInitialize.") {
			t.Errorf("%s: the install did not stop at the launch conditions:\n%s", name, log)
		}
		if w.exists(installDirs[ArchX64]+`\ctrld.exe`) || w.exists(lastResult) || w.read(calls) != "" {
			t.Fatalf("%s: something was installed or ran (calls %q)", name, w.read(calls))
		}
	}
	w.noCanaryLeftBehind(msiLog)
}

// A file a user put where earlier releases kept the record, under
// ProgramData where any user can create one, neither blocks the install
// nor is read: the record is in the record folder under Program Files,
// and the planted file is left as it was. (Wine runs everything as one
// account and keeps no ACLs, so the standard user's attacks, a held
// file and a kept WRITE_DAC handle, are played on the hosted Windows
// runner.)
func TestWineInstallIgnoresTheOldRecordPlace(t *testing.T) {
	t.Parallel()
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
	out, code = w.run(w.path(installDirs[ArchX64]+`\ctrld-install.exe`), "last")
	if code != 0 || strings.TrimSpace(out) != "provisioning complete (exit 0)" {
		t.Fatalf("ctrld-install last: %d %q", code, out)
	}
	if data, err := os.ReadFile(w.path(`C:\ProgramData\ControlD`)); err != nil || string(data) != planted {
		t.Fatalf("the planted file changed: %q, %v", data, err)
	}
	w.noCanaryLeftBehind(msiLog)
}
