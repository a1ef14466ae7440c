package windows

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/testenv"
)

// The MSI is installed for real with Wine's msiexec, in a fresh prefix per
// test. Wine differs from Windows in two documented ways: a failed install
// returns 1627 where Windows returns 1603, and MsiHiddenProperties is not
// honoured (secrecy is asserted on the tables instead, see msi_test.go).

type wine struct {
	t      *testing.T
	prefix string
	env    []string
}

func newWine(t *testing.T) *wine {
	t.Helper()
	testenv.RequireTool(t, "wine")
	testenv.RequireTool(t, "wineboot")
	w := &wine{t: t, prefix: t.TempDir()}
	w.env = append(os.Environ(), "WINEPREFIX="+w.prefix, "WINEDEBUG=-all", "WINEDLLOVERRIDES=mscoree,mshtml=", "DISPLAY=")
	if out, err := w.cmd(3*time.Minute, "wineboot", "-i").CombinedOutput(); err != nil {
		t.Fatalf("wineboot: %v\n%s", err, out)
	}
	t.Cleanup(func() { w.cmd(time.Minute, "wineserver", "-k").Run() })
	stub, err := os.ReadFile(filepath.Join(testenv.RepoRoot(), "installers", "windows", "winestub", "bcryptprimitives.dll"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(w.path(`C:\windows\system32\bcryptprimitives.dll`), stub, 0o644); err != nil {
		t.Fatal(err)
	}
	return w
}

func (w *wine) cmd(timeout time.Duration, name string, args ...string) *exec.Cmd {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	w.t.Cleanup(cancel)
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = w.env
	return cmd
}

// path maps a C:\ path into the prefix.
func (w *wine) path(win string) string {
	rel := strings.ReplaceAll(strings.TrimPrefix(win, `C:\`), `\`, "/")
	return filepath.Join(w.prefix, "drive_c", rel)
}

// run runs a Windows program and returns its output and exit code. The
// canary must never be in the output.
func (w *wine) run(args ...string) (string, int) {
	w.t.Helper()
	var out bytes.Buffer
	cmd := w.cmd(5*time.Minute, "wine", args...)
	cmd.Stdout, cmd.Stderr = &out, &out
	code, err := testenv.ExitCode(cmd.Run())
	if err != nil {
		w.t.Fatalf("wine %v: %v", args, err)
	}
	if strings.Contains(out.String(), testenv.Canary) {
		w.t.Fatalf("canary token in the output of %v", args)
	}
	return out.String(), code
}

func (w *wine) read(win string) string {
	data, _ := os.ReadFile(w.path(win))
	return string(data)
}

func (w *wine) exists(win string) bool {
	_, err := os.Stat(w.path(win))
	return err == nil
}

// scenario tells the fake ctrld what to do; the variable reaches the
// custom action through msiexec's environment.
func (w *wine) scenario(lines ...string) {
	path := filepath.Join(w.prefix, "fake-ctrld.scenario")
	os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	w.env = append(w.env, "FAKE_CTRLD_SCENARIO="+path)
}

// noCanaryLeftBehind checks every file in the prefix but msiexec's own
// verbose logs, where Wine (unlike Windows) writes hidden properties.
func (w *wine) noCanaryLeftBehind(logs ...string) {
	w.t.Helper()
	var skip []string
	for _, l := range logs {
		skip = append(skip, w.path(l))
	}
	for _, f := range testenv.FilesWithCanary(w.prefix, skip...) {
		w.t.Errorf("canary token in %s", strings.TrimPrefix(f, w.prefix))
	}
}

var winBuild = struct {
	once                sync.Once
	msi, ctrld, wrapper string
	err                 error
}{}

// builtMSI builds Windows binaries of the fake ctrld and the wrapper, and
// the MSI around them, once for all Wine tests.
func builtMSI(t *testing.T) (msi, wrapper string) {
	t.Helper()
	testenv.RequireTool(t, "wine")
	winBuild.once.Do(func() {
		dir, _ := os.MkdirTemp("", "ctrld-msi-test")
		env := []string{"GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0"}
		winBuild.ctrld = testenv.GoBuild(t, dir, "ctrld.exe", "./testdata/fakectrld", env...)
		winBuild.wrapper = testenv.GoBuild(t, dir, "ctrld-install.exe", "./wrapper", env...)
		p := Package{Version: "1.2.3", Arch: "x64", Ctrld: winBuild.ctrld, Wrapper: winBuild.wrapper, MTime: epoch}
		winBuild.msi = filepath.Join(dir, p.FileName())
		winBuild.err = writeFile(winBuild.msi, p.Build)
	})
	if winBuild.err != nil {
		t.Fatal(winBuild.err)
	}
	return winBuild.msi, winBuild.wrapper
}

const (
	installDir = `C:\Program Files\ControlD`
	lastResult = `C:\ProgramData\ControlD\ctrld-install-last-result`
	msiLog     = `C:\msiexec.log`
)

func TestWineInstallSucceedsAndUninstallsClean(t *testing.T) {
	msi, _ := builtMSI(t)
	w := newWine(t)
	w.scenario("start.echo-token=1", `record=C:\ctrld-calls.txt`)
	out, code := w.run("msiexec", "/i", msi, "/qn", "/l*v", msiLog, "PROVISION_TOKEN="+testenv.Canary, "CUSTOM_HOSTNAME=win-07")
	if code != 0 {
		t.Fatalf("msiexec /i: exit %d\n%s\n%s", code, out, w.read(msiLog))
	}
	for _, f := range []string{installDir + `\ctrld.exe`, installDir + `\ctrld-install.exe`} {
		if !w.exists(f) {
			t.Fatalf("%s not installed", f)
		}
	}
	if got := w.read(lastResult); got != "provisioning complete (exit 0)\n" {
		t.Fatalf("last result %q", got)
	}
	if calls := w.read(`C:\ctrld-calls.txt`); !strings.Contains(calls, "start --cd-org=sha256:") || !strings.Contains(calls, "--custom-hostname=win-07") {
		t.Fatalf("ctrld calls %q", calls)
	}
	// The line is also in the Application event log... which Wine keeps
	// nowhere readable; `ctrld-install last` reads the record.
	out, code = w.run(w.path(installDir+`\ctrld-install.exe`), "last")
	if code != 0 || strings.TrimSpace(out) != "provisioning complete (exit 0)" {
		t.Fatalf("ctrld-install last: %d %q", code, out)
	}

	out, code = w.run("msiexec", "/x", msi, "/qn", "/l*v", `C:\msiexec-uninstall.log`)
	if code != 0 {
		t.Fatalf("msiexec /x: exit %d\n%s", code, out)
	}
	for _, gone := range []string{installDir, `C:\ProgramData\ControlD`} {
		if w.exists(gone) {
			entries, _ := os.ReadDir(w.path(gone))
			t.Errorf("%s left behind: %v", gone, entries)
		}
	}
	if calls := w.read(`C:\ctrld-calls.txt`); !strings.Contains(calls, "uninstall") {
		t.Errorf("the service was not uninstalled: %q", calls)
	}
	w.noCanaryLeftBehind(msiLog, `C:\msiexec-uninstall.log`)
}

func TestWineFailureRollsBackAndRecordsTheCode(t *testing.T) {
	msi, _ := builtMSI(t)
	w := newWine(t)
	w.scenario("start.echo-token=1", "start.fail=listener,LISTENER_BIND_FAILED,41")
	out, code := w.run("msiexec", "/i", msi, "/qn", "/l*v", msiLog, "PROVISION_TOKEN="+testenv.Canary)
	// Exit codes reach Linux cut to 8 bits: 1603 is 67, 1627 is 91.
	if code != 1603&0xff && code != 1627&0xff {
		t.Fatalf("msiexec: exit %d, want 1603 (Windows) or 1627 (Wine), cut to 8 bits\n%s", code, out)
	}
	if w.exists(installDir + `\ctrld.exe`) {
		t.Fatal("files not rolled back")
	}
	if got := w.read(lastResult); got != "provisioning failed: stage=listener code=LISTENER_BIND_FAILED (exit 41)\n" {
		t.Fatalf("last result %q (must survive the rollback)", got)
	}
	w.noCanaryLeftBehind(msiLog)
}

// The Win32 / RMM mode: ctrld-install runs msiexec and exits with the
// stage code, which is what reaches the Intune console.
func TestWineWin32ModeExitsWithStageCode(t *testing.T) {
	msi, wrapper := builtMSI(t)
	w := newWine(t)
	os.MkdirAll(w.path(`C:\pkg`), 0o755)
	data, _ := os.ReadFile(wrapper)
	os.WriteFile(w.path(`C:\pkg\ctrld-install.exe`), data, 0o755)

	w.scenario("start.fail=listener,LISTENER_BIND_FAILED,41")
	out, code := w.run(w.path(`C:\pkg\ctrld-install.exe`), "install-msi", msi, "PROVISION_TOKEN="+testenv.Canary)
	if code != 41 || !strings.Contains(out, "provisioning failed: stage=listener code=LISTENER_BIND_FAILED (exit 41)") {
		t.Fatalf("install-msi on failure: exit %d\n%s", code, out)
	}

	w.scenario()
	out, code = w.run(w.path(`C:\pkg\ctrld-install.exe`), "install-msi", msi, "PROVISION_TOKEN="+testenv.Canary)
	if code != 0 || !strings.Contains(out, "provisioning complete (exit 0)") {
		t.Fatalf("install-msi on success: exit %d\n%s", code, out)
	}
	w.noCanaryLeftBehind(`C:\windows\temp\ctrld-install-msiexec.log`, `C:\users\root\Temp\ctrld-install-msiexec.log`)
}
