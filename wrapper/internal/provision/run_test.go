//go:build unix

package provision

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/codes"
	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/internal/settings"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/lock"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/platform"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/record"
)

// panickyOS is Linux whose upgrade check panics with a message that
// carries the token.
type panickyOS struct{ platform.Linux }

func (panickyOS) Installed(platform.Service) bool { panic("boom near " + testenv.Canary) }

// A panic is WRAPPER_INTERNAL: one line, exit 69, recorded, the reason in
// the OS log with the token redacted, and the lock released.
func TestPanicIsWrapperInternal(t *testing.T) {
	ctrld, _ := shCtrld(t, 0, 0)
	p, log := newProvisioner(t, ctrld, panickyOS{}, nil, settings.Settings{settings.ProvisionToken: testenv.Canary})
	o := p.Run(context.Background())
	if o.Code != codes.WrapperInternal || o.Exit() != 69 {
		t.Fatalf("got %q", o.Line())
	}
	text := strings.Join(*log, "\n")
	if !strings.Contains(text, "WRAPPER_INTERNAL: internal error: boom near [redacted]") {
		t.Fatalf("the OS log does not say why: %q", text)
	}
	if strings.Contains(text, testenv.Canary) {
		t.Fatal("the token reached the OS log")
	}
	if got, ok := record.ReadLast(p.Config.RecordDir); !ok || got != o {
		t.Fatalf("record %q, %v", got.Line(), ok)
	}
	l, err := lock.Acquire(p.Config.Home)
	if err != nil {
		t.Fatalf("lock still held after the panic: %v", err)
	}
	l.Release()
}

// recordCheckingLog fails the test when an outcome reaches the OS log
// before it is recorded: the record is written under the lock, inside
// Run, not by the caller after the lock is gone.
type recordCheckingLog struct {
	t   *testing.T
	dir string
	warnings
}

func (l *recordCheckingLog) Result(o codes.Outcome) {
	if got, ok := record.ReadLast(l.dir); !ok || got != o {
		l.t.Errorf("outcome %q logged before it was recorded (record %q)", o.Line(), got.Line())
	}
}

func TestRunRecordsBeforeItReturns(t *testing.T) {
	ctrld, _ := shCtrld(t, 41, 0)
	p, _ := newProvisioner(t, ctrld, platform.Linux{}, nil, settings.Settings{settings.ProvisionToken: testenv.Canary})
	p.Log = &recordCheckingLog{t: t, dir: p.Config.RecordDir}
	if o := p.Run(context.Background()); o.Code != codes.ListenerBindFailed {
		t.Fatalf("got %q", o.Line())
	}
}

// A run refused by the lock leaves the holder's record alone.
func TestBusyRunRecordsNothing(t *testing.T) {
	ctrld, _ := shCtrld(t, 0, 0)
	p, log := newProvisioner(t, ctrld, platform.Linux{}, nil, settings.Settings{settings.ProvisionToken: testenv.Canary})
	mustSave(t, p.Config.RecordDir, codes.Failure(codes.TokenExpired))
	held, err := lock.Acquire(p.Config.Home)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Release()
	if o := p.Run(context.Background()); o.Code != codes.InstallInProgress {
		t.Fatalf("got %q", o.Line())
	}
	if got, _ := record.ReadLast(p.Config.RecordDir); got.Code != codes.TokenExpired {
		t.Fatalf("the busy run overwrote the record with %q", got.Line())
	}
	if !strings.Contains(strings.Join(*log, "\n"), "result: "+codes.Failure(codes.InstallInProgress).Line()) {
		t.Fatalf("the busy run's line is not in the OS log: %q", *log)
	}
}

// underAFile is a folder path that cannot be made: its parent is a file.
func underAFile(t *testing.T) string {
	file := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(file, "dir")
}

// A record that cannot be written is said in the OS log; the outcome
// stands.
func TestRecordFailureIsLogged(t *testing.T) {
	ctrld, _ := shCtrld(t, 0, 0)
	p, log := newProvisioner(t, ctrld, platform.Linux{}, nil, settings.Settings{settings.ProvisionToken: testenv.Canary})
	p.Config.RecordDir = underAFile(t)
	if o := p.Run(context.Background()); !o.OK {
		t.Fatalf("got %q", o.Line())
	}
	if !strings.Contains(strings.Join(*log, "\n"), "the result could not be recorded") {
		t.Fatalf("record failure not logged: %q", *log)
	}
}

func TestHomeThatCannotBeMadeSaysWhy(t *testing.T) {
	ctrld, _ := shCtrld(t, 0, 0)
	p, log := newProvisioner(t, ctrld, platform.Linux{}, nil, settings.Settings{settings.ProvisionToken: testenv.Canary})
	p.Config.Home = underAFile(t)
	if o := p.Run(context.Background()); o.Code != codes.WrapperInternal {
		t.Fatalf("got %q", o.Line())
	}
	if !strings.Contains(strings.Join(*log, "\n"), "WRAPPER_INTERNAL: the ctrld home dir could not be created: ") {
		t.Fatalf("no reason in the OS log: %q", *log)
	}
}

func TestUninstallRemovesOnlyWhatTheWrapperWrote(t *testing.T) {
	ctrld, calls := shCtrld(t, 0, 0)
	home := t.TempDir()
	controlD := filepath.Join(t.TempDir(), "Program Files", names.InstallFolder)
	records := filepath.Join(controlD, names.RecordFolder)
	mustSave(t, records, codes.Success)
	os.WriteFile(filepath.Join(records, names.MsiexecLogFile), []byte("msiexec's log"), 0o600)
	l, _ := lock.Acquire(home)
	l.Release()
	os.WriteFile(filepath.Join(home, "admin-notes"), nil, 0o644)
	code := Uninstall(context.Background(), Config{Ctrld: ctrld, Home: home, RecordDir: records, Grace: grace}, platform.Linux{})
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	if data, _ := os.ReadFile(calls); string(data) != "uninstall\n" {
		t.Fatalf("ctrld calls %q", data)
	}
	if _, err := os.Stat(controlD); !os.IsNotExist(err) {
		t.Fatal("the emptied record folder, or the ControlD folder holding it, is still there")
	}
	entries, _ := os.ReadDir(home)
	if len(entries) != 1 || entries[0].Name() != "admin-notes" {
		t.Fatalf("home holds %v", entries)
	}
}

func TestUninstallWithoutCtrld(t *testing.T) {
	home := t.TempDir()
	mustSave(t, home, codes.Success)
	if code := Uninstall(context.Background(), Config{Ctrld: filepath.Join(home, "gone"), Home: home, RecordDir: home}, platform.Linux{}); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if _, ok := record.ReadLast(home); ok {
		t.Fatal("record left behind")
	}
}

func mustSave(t *testing.T, dir string, o codes.Outcome) {
	t.Helper()
	if err := record.SaveLast(dir, o); err != nil {
		t.Fatal(err)
	}
}

func TestUninstallKeepsTheLockOfARunningStart(t *testing.T) {
	home := t.TempDir()
	held, err := lock.Acquire(home)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Release()
	Uninstall(context.Background(), Config{Ctrld: filepath.Join(home, "gone"), Home: home, RecordDir: home}, platform.Linux{})
	if _, err := os.Stat(filepath.Join(home, lock.FileName)); err != nil {
		t.Fatalf("uninstall deleted the lock a running start holds: %v", err)
	}
}

// gatePanics is Linux whose success gate panics.
type gatePanics struct{ platform.Linux }

func (gatePanics) Gate(context.Context, platform.Service) bool { panic("gate") }

// While ctrld start runs, the tree marker names it; a run that ends in
// WRAPPER_INTERNAL leaves no marker behind.
func TestPanicLeavesNoTreeMarker(t *testing.T) {
	home := t.TempDir()
	ctrld := filepath.Join(t.TempDir(), "ctrld")
	marker := filepath.Join(home, lock.TreeFileName)
	// ctrld start exits 0 only when it finds itself marked, which the
	// wrapper does just after it started.
	script := "#!/bin/sh\n[ \"$1\" = start ] || exit 0\nfor i in $(seq 100); do\n" +
		"  grep -qs \"^group=$$ \" " + marker + " && exit 0\n  sleep 0.05\ndone\nexit 1\n"
	if err := os.WriteFile(ctrld, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	p, _ := newProvisioner(t, ctrld, gatePanics{}, nil, settings.Settings{settings.ProvisionToken: testenv.Canary})
	p.Config.Home, p.Config.RecordDir = home, home
	if o := p.Run(context.Background()); o.Code != codes.WrapperInternal {
		t.Fatalf("got %q: ctrld start did not find its marker, or the gate did not run", o.Line())
	}
	if _, err := os.Lstat(marker); !os.IsNotExist(err) {
		t.Fatalf("the marker was left: %v", err)
	}
}
