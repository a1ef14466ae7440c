package provision

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/codes"
	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/internal/settings"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/evidence"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/platform"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/record"
)

// noServices is a Windows service manager with no services: a fresh install.
type noServices struct{}

func (noServices) Exists(string) bool                    { return false }
func (noServices) Running(string) bool                   { return false }
func (noServices) Restart(context.Context, string) error { return nil }

// listenerFailure records LISTENER_BIND_FAILED for an attempt that began
// now, with a result file in cfg.Home that adds the given JSON fields.
func listenerFailure(t *testing.T, cfg Config, fields string) (time.Time, codes.Outcome) {
	t.Helper()
	began := time.Now().Truncate(time.Second)
	result := `{"version":1,"timestamp":"` + began.UTC().Format(time.RFC3339) + `","stage":"listener",` +
		`"code":"LISTENER_BIND_FAILED","exit_code":41,` + fields + `}`
	if err := os.WriteFile(filepath.Join(cfg.Home, names.ResultFile), []byte(result), 0o600); err != nil {
		t.Fatal(err)
	}
	o := codes.Failure(codes.ListenerBindFailed)
	if err := record.SaveLast(cfg.RecordDir, o); err != nil {
		t.Fatal(err)
	}
	return began, o
}

// On Windows ctrld's home is its install folder, which an MSI rollback
// empties of the files in it, the result file among them. The kept copy
// sits with the record in the record folder, which the MSI installs
// nothing in, so it outlives the rollback; the token from the policy
// key, a lower-priority source, is redacted from it.
func TestEvidenceSurvivesRollbackOnWindows(t *testing.T) {
	programFiles := t.TempDir()
	home := filepath.Join(programFiles, names.InstallFolder)
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	osys := platform.Windows{
		SCM:          noServices{},
		ReadPolicy:   func() settings.Settings { return settings.Settings{settings.ProvisionToken: testenv.Canary} },
		ProgramFiles: programFiles,
	}
	cfg := Config{Home: home, RecordDir: osys.RecordDir(home)}
	if err := os.MkdirAll(cfg.RecordDir, 0o755); err != nil {
		t.Fatal(err)
	}
	began, o := listenerFailure(t, cfg, `"message":"bind failed for `+testenv.Canary+`",`+
		`"detail":{"attempts":[{"addr":"127.0.0.1:53","proto":"udp","os_error":"address already in use"}]}`)
	p := &Provisioner{Config: cfg, OS: osys, Log: silent{}}
	p.gather(context.Background())
	p.keepEvidence(began, o)

	rollBack(t, home, cfg.RecordDir)
	known, err := KnownTokens(context.Background(), cfg, osys)
	if err != nil {
		t.Fatal(err)
	}
	r, err := evidence.Load(cfg.RecordDir, o.Line(), time.Now().Add(-time.Minute), known)
	if err != nil {
		t.Fatalf("no copy in the record folder after the rollback: %v", err)
	}
	if r.Message != "bind failed for [redacted]" {
		t.Errorf("message = %q", r.Message)
	}
	if len(r.Attempts) != 1 || r.Attempts[0].OSError != "address already in use" {
		t.Errorf("attempts = %+v", r.Attempts)
	}
	if found := testenv.FilesWithCanary(programFiles); len(found) > 0 || strings.Contains(r.Message, testenv.Canary) {
		t.Fatalf("canary in %v or in the copy", found)
	}

	// The next attempt, a success, removes the copy.
	p.keepEvidence(time.Now(), codes.Success)
	if _, err := os.Stat(filepath.Join(cfg.RecordDir, evidence.FileName)); !os.IsNotExist(err) {
		t.Fatalf("copy kept after success: %v", err)
	}
}

// The kept copy holds no part of any token, also of one that lost to
// another source: here the environment's token, overridden by the token
// file, whose characters ctrld's message repeats upper-cased, without the
// digits that would make the run look like a token by its shape.
func TestEvidenceCopyHoldsNoPartOfAnOverriddenToken(t *testing.T) {
	home, work := t.TempDir(), t.TempDir()
	tokenFile := filepath.Join(work, "token")
	os.WriteFile(tokenFile, []byte("file-token-that-wins-0042\n"), 0o600)
	osys := platform.Linux{}
	cfg := Resolve(Input{Ctrld: filepath.Join(work, "ctrld"), Home: home, TokenFile: tokenFile,
		Prefs: filepath.Join(work, "none.plist"), SettingsFile: filepath.Join(work, "none")},
		osys, []string{TokenEnv + "=" + testenv.CodeCanary}, silent{})
	began, o := listenerFailure(t, cfg, `"message":"bind failed for `+strings.ToUpper(testenv.CodeCanary[:22])+`"`)
	p := &Provisioner{Config: cfg, OS: osys, Log: silent{}}
	p.rememberGiven()
	p.keepEvidence(began, o)
	kept, err := os.ReadFile(filepath.Join(cfg.RecordDir, evidence.FileName))
	if err != nil {
		t.Fatalf("no copy kept: %v", err)
	}
	if testenv.HoldsPartOf(kept, testenv.CodeCanary) || !strings.Contains(string(kept), "bind failed for [redacted]") {
		t.Fatalf("copy: %s", kept)
	}
}

// rollBack removes every file an MSI rollback takes from the install
// folder home: all it holds but the record folder.
func rollBack(t *testing.T, home, records string) {
	t.Helper()
	entries, err := os.ReadDir(home)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if path := filepath.Join(home, e.Name()); path != records {
			if err := os.RemoveAll(path); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(home, names.ResultFile)); !os.IsNotExist(err) {
		t.Fatalf("the result file outlived the rollback: %v", err)
	}
}
