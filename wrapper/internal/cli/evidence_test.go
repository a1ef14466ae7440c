package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/testenv"
	"github.com/ctrld-install/ctrld-install/wrapper/codes"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/evidence"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/platform"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/report"
	"github.com/ctrld-install/ctrld-install/wrapper/settings"
)

// windowsSCM has no services: a fresh install.
type windowsSCM struct{}

func (windowsSCM) Exists(string) bool                    { return false }
func (windowsSCM) Running(string) bool                   { return false }
func (windowsSCM) Restart(context.Context, string) error { return nil }

// On Windows ctrld's home is its install folder, which an MSI rollback
// deletes with the result file in it. The kept copy sits with the record
// under ProgramData, so explain still shows the evidence afterwards; the
// token from the policy key is redacted from it.
func TestEvidenceSurvivesRollbackOnWindows(t *testing.T) {
	programData := t.TempDir()
	home := filepath.Join(t.TempDir(), "Program Files", "ControlD")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	osys := platform.Windows{
		SCM:         windowsSCM{},
		ReadPolicy:  func() settings.Settings { return settings.Settings{settings.ProvisionToken: testenv.Canary} },
		ProgramData: programData,
	}
	f := &startFlags{home: home, ctrld: filepath.Join(home, "ctrld.exe")}
	began := time.Now()
	result := `{"version":1,"timestamp":"` + began.UTC().Format(time.RFC3339) + `","stage":"listener",` +
		`"code":"LISTENER_BIND_FAILED","exit_code":41,"message":"bind failed for ` + testenv.Canary + `",` +
		`"detail":{"attempts":[{"addr":"127.0.0.1:53","proto":"udp","os_error":"address already in use"}]}}`
	if err := os.WriteFile(filepath.Join(home, "provision_result.json"), []byte(result), 0o600); err != nil {
		t.Fatal(err)
	}
	o := codes.Failure(codes.MustLookup("LISTENER_BIND_FAILED"))
	records := osys.LastResultDir(home)
	if err := report.SaveLast(records, o); err != nil {
		t.Fatal(err)
	}
	keepEvidence(f, osys, began, o)

	if err := os.RemoveAll(home); err != nil { // the rollback
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(programData, "ControlD", evidence.FileName)); err != nil {
		t.Fatalf("no copy under ProgramData: %v", err)
	}
	var out strings.Builder
	if code := explain(&out, osys, f); code != exitOK {
		t.Fatalf("explain exited %d", code)
	}
	for _, want := range []string{o.Line(), "  message: bind failed for [redacted]", "  attempt: 127.0.0.1:53 udp: address already in use"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("explain lacks %q:\n%s", want, out.String())
		}
	}
	if found := testenv.FilesWithCanary(programData); len(found) > 0 || strings.Contains(out.String(), testenv.Canary) {
		t.Fatalf("canary in %v or in the output", found)
	}

	// The next attempt, a success, removes the copy.
	keepEvidence(f, osys, time.Now(), codes.Success)
	if _, err := os.Stat(filepath.Join(records, evidence.FileName)); !os.IsNotExist(err) {
		t.Fatalf("copy kept after success: %v", err)
	}
}
