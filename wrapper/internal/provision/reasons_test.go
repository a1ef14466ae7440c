//go:build unix

package provision

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/settings"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/evidence"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/platform"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/record"
)

// underCanary is a new folder whose path holds the token, so that any
// error naming a file in it holds the token too.
func underCanary(t *testing.T) string {
	dir := filepath.Join(t.TempDir(), testenv.Canary)
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// noCanary fails the test when the OS log holds any part of the token.
func noCanary(t *testing.T, log []string) {
	t.Helper()
	if testenv.HoldsPartOf([]byte(strings.Join(log, "\n")), testenv.Canary) {
		t.Fatalf("the token reached the OS log: %q", log)
	}
}

// A ctrld that passes the checks but that the OS will not run is still
// CTRLD_NOT_FOUND (exit 62), and the OS log says why, with the token in
// the error's path redacted.
func TestCtrldThatCannotStartSaysWhy(t *testing.T) {
	for content, cause := range map[string]string{
		"garbage, not an ELF file and no #! line": "exec format error",
		"#!/nonexistent/interpreter\n":            "no such file or directory",
	} {
		t.Run(cause, func(t *testing.T) {
			ctrld := filepath.Join(underCanary(t), "ctrld")
			if err := os.WriteFile(ctrld, []byte(content), 0o755); err != nil {
				t.Fatal(err)
			}
			p, log := newProvisioner(t, ctrld, platform.Linux{}, nil, settings.Settings{settings.ProvisionToken: testenv.Canary})
			o := p.Run(context.Background())
			if o.Line() != "provisioning failed: stage=package code=CTRLD_NOT_FOUND (exit 62)" {
				t.Fatalf("got %q", o.Line())
			}
			text := strings.Join(*log, "\n")
			want := "CTRLD_NOT_FOUND: ctrld start: could not start process: fork/exec "
			if !strings.Contains(text, want) || !strings.Contains(text, "/[redacted]/ctrld: "+cause) {
				t.Fatalf("the OS log does not say why: %q", text)
			}
			noCanary(t, *log)
		})
	}
}

// A ctrld that is missing, no file or not executable is CTRLD_NOT_FOUND
// before anything runs, and the OS log says which, redacted.
func TestCtrldThatIsNoProgramSaysWhy(t *testing.T) {
	cases := map[string]func(path string) error{
		"no such file or directory": func(string) error { return nil },
		"not a regular file":        func(path string) error { return os.Mkdir(path, 0o755) },
		"no execute permission":     func(path string) error { return os.WriteFile(path, []byte("#!/bin/sh\n"), 0o644) },
	}
	for cause, make := range cases {
		t.Run(cause, func(t *testing.T) {
			ctrld := filepath.Join(underCanary(t), "ctrld")
			if err := make(ctrld); err != nil {
				t.Fatal(err)
			}
			p, log := newProvisioner(t, ctrld, platform.Linux{}, nil, settings.Settings{settings.ProvisionToken: testenv.Canary})
			if o := p.Run(context.Background()); o.Line() != "provisioning failed: stage=package code=CTRLD_NOT_FOUND (exit 62)" {
				t.Fatalf("got %q", o.Line())
			}
			text := strings.Join(*log, "\n")
			if !strings.Contains(text, "ctrld not run: ctrld is missing or not executable: ") || !strings.Contains(text, cause) {
				t.Fatalf("the OS log does not say why: %q", text)
			}
			noCanary(t, *log)
		})
	}
}

// A copy of the evidence that cannot be saved is said in the OS log, with
// the token in the folder's path redacted; the outcome and its record
// stand.
func TestEvidenceThatCannotBeSavedSaysWhy(t *testing.T) {
	dir := underCanary(t)
	cfg := Config{Home: dir, RecordDir: dir}
	began, o := listenerFailure(t, cfg, `"message":"bind failed"`)
	// A folder in the copy's place, which no rename can replace.
	if err := os.MkdirAll(filepath.Join(dir, evidence.FileName, "taken"), 0o755); err != nil {
		t.Fatal(err)
	}
	log := &warnings{}
	p := &Provisioner{Config: cfg, OS: platform.Linux{}, Log: log}
	p.know(testenv.Canary)
	p.keepEvidence(began, o)
	text := strings.Join(*log, "\n")
	if !strings.Contains(text, "the evidence copy could not be saved: rename ") || !strings.Contains(text, "/[redacted]/") {
		t.Fatalf("the OS log does not say why: %q", text)
	}
	noCanary(t, *log)
}

// panickyLog is an OS log whose first warning panics, with the token in
// the panic's value.
type panickyLog struct {
	warnings
	panicked bool
}

func (l *panickyLog) Warn(msg string) {
	if !l.panicked {
		l.panicked = true
		panic("log broke near " + testenv.Canary)
	}
	l.warnings.Warn(msg)
}

// A panic while the evidence is kept leaves the decided outcome alone and
// is said in the OS log, redacted.
func TestPanicWhileKeepingEvidenceSaysWhy(t *testing.T) {
	dir := underCanary(t)
	cfg := Config{Home: dir, RecordDir: dir}
	began, o := listenerFailure(t, cfg, `"message":"bind failed"`)
	// The copy cannot be saved, so the log gets a warning, and panics.
	os.MkdirAll(filepath.Join(dir, evidence.FileName, "taken"), 0o755)
	log := &panickyLog{}
	p := &Provisioner{Config: cfg, OS: platform.Linux{}, Log: log}
	p.know(testenv.Canary)
	p.keepEvidence(began, o)
	text := strings.Join(log.warnings, "\n")
	if !strings.Contains(text, "keeping the evidence copy failed: internal error: log broke near [redacted]") {
		t.Fatalf("the OS log does not say why: %q", text)
	}
	noCanary(t, log.warnings)
	if got, ok := record.ReadLast(dir); !ok || got != o {
		t.Fatalf("record %q, %v", got.Line(), ok)
	}
}

// A ctrld status that the OS will not run fails the success gate, and the
// OS log says why.
func TestStatusThatCannotRunSaysWhy(t *testing.T) {
	ctrld := filepath.Join(underCanary(t), "ctrld")
	// start succeeds, and leaves a file the OS cannot run for status.
	script := "#!/bin/sh\ncase \"$1\" in\nstart) echo garbage > \"$0\"; exit 0;;\nesac\nexit 0\n"
	if err := os.WriteFile(ctrld, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	p, log := newProvisioner(t, ctrld, platform.Linux{}, nil, settings.Settings{settings.ProvisionToken: testenv.Canary})
	if o := p.Run(context.Background()); o.Line() != "provisioning failed: stage=package code=SUCCESS_GATE_FAILED (exit 65)" {
		t.Fatalf("got %q", o.Line())
	}
	text := strings.Join(*log, "\n")
	if !strings.Contains(text, "ctrld status did not run: could not start process: fork/exec ") || !strings.Contains(text, "/[redacted]/ctrld: exec format error") {
		t.Fatalf("the OS log does not say why: %q", text)
	}
	noCanary(t, *log)
}
