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

	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// The MSI is installed for real with Wine's msiexec, in a fresh prefix per
// test (a copy of one booted per run); the prefixes share nothing, not
// even a wineserver, so the tests run in parallel. Wine differs from
// Windows in two documented ways: a failed install returns 1627 where
// Windows returns 1603, and MsiHiddenProperties is not honoured (secrecy
// is asserted on the tables instead, see msi_test.go).

type wine struct {
	t      *testing.T
	prefix string
	env    []string
}

func newWine(t *testing.T) *wine {
	t.Helper()
	testenv.RealInstall(t, "msiexec under Wine")
	testenv.RequireTool(t, "wine")
	testenv.RequireTool(t, "wineboot")
	testenv.RequireTool(t, "wineserver")
	w := &wine{t: t, prefix: t.TempDir()}
	w.env = wineEnv(w.prefix)
	copyTemplate(t, w.prefix)
	t.Cleanup(func() { w.cmd(time.Minute, "wineserver", "-k").Run() })
	return w
}

func (w *wine) cmd(timeout time.Duration, name string, args ...string) *exec.Cmd {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	w.t.Cleanup(cancel)
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = w.env
	return cmd
}

// settle waits until every process of the prefix has ended and its
// wineserver with them.
func (w *wine) settle() {
	w.t.Helper()
	if out, err := w.cmd(2*time.Minute, "wineserver", "-w").CombinedOutput(); err != nil {
		w.t.Fatalf("wineserver -w: %v\n%s", err, out)
	}
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
	// A failed run killed ctrld's job: Wine ends the job's processes after
	// the program has returned, where Windows has ended them before, and
	// until they are gone the next run rightly answers INSTALL_IN_PROGRESS.
	if code != 0 {
		w.settle()
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

// winBinaries are Windows builds of the fake ctrld and the wrapper, made
// once for all Wine tests. They are amd64 builds in every package: Debian's
// Wine here runs 64-bit programs only (no wine32), so the x86 package is
// tested for its tables and behaviour (Program Files (x86), 32-bit
// components, the custom actions), not for 386 binaries.
var winBinaries = struct {
	once           sync.Once
	ctrld, wrapper string
	mu             sync.Mutex
	msis           map[string]string
}{msis: map[string]string{}}

// builtMSI builds the MSI of an architecture and version around them.
func builtMSI(t *testing.T, arch, version string) (msi, wrapper string) {
	t.Helper()
	testenv.RealInstall(t, "msiexec under Wine")
	testenv.RequireTool(t, "wine")
	winBinaries.once.Do(func() {
		dir, _ := os.MkdirTemp("", "ctrld-msi-test")
		env := []string{"GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0"}
		winBinaries.ctrld = testenv.GoBuild(t, dir, "ctrld.exe", "./testdata/fakectrld", env...)
		winBinaries.wrapper = testenv.GoBuild(t, dir, "ctrld-install.exe", "./wrapper", env...)
	})
	if winBinaries.wrapper == "" {
		t.Fatal("the Windows builds failed in another test")
	}
	winBinaries.mu.Lock()
	defer winBinaries.mu.Unlock()
	p := Package{Version: version, Arch: arch, Ctrld: winBinaries.ctrld, Wrapper: winBinaries.wrapper, MTime: epoch}
	if msi = winBinaries.msis[p.FileName()]; msi != "" {
		return msi, winBinaries.wrapper
	}
	msi = filepath.Join(filepath.Dir(winBinaries.ctrld), p.FileName())
	if err := writeFile(msi, p.Build); err != nil {
		t.Fatal(err)
	}
	winBinaries.msis[p.FileName()] = msi
	return msi, winBinaries.wrapper
}

// installDirs are where each package installs under Wine's 64-bit prefix.
var installDirs = map[string]string{
	ArchX64: `C:\Program Files\ControlD`,
	ArchX86: `C:\Program Files (x86)\ControlD`,
}

// wineArchs are the packages Wine on x64 can install.
var wineArchs = []string{ArchX64, ArchX86}

func forEachWineArch(t *testing.T, test func(t *testing.T, arch, installDir string)) {
	for _, arch := range wineArchs {
		t.Run(arch, func(t *testing.T) {
			t.Parallel()
			test(t, arch, installDirs[arch])
		})
	}
}

// recordDir is where every package's wrapper keeps the record: in
// ControlD under the native Program Files, the x86 package's too.
const (
	controlD   = `C:\Program Files\ControlD`
	recordDir  = controlD + `\records`
	lastResult = recordDir + `\ctrld-install-last-result`
	msiLog     = `C:\msiexec.log`
	calls      = `C:\ctrld-calls.txt`
)

// Windows Installer's exit codes, as they reach a Linux parent: cut to 8
// bits.
const (
	exitInstallFailure  = 1603 & 0xff // Windows, on a failed action
	exitWineFailure     = 1627 & 0xff // Wine 8, for the same
	exitUnknownProduct  = 1605 & 0xff
	exitPlatformRefused = 1633 & 0xff // ERROR_INSTALL_PLATFORM_UNSUPPORTED
)

// serviceQuery asks Wine's service manager about ctrld's service (the
// fake registers one named after its binary, as ctrld does).
func (w *wine) serviceQuery() (running bool, out string) {
	out, code := w.run("sc", "query", "ctrld")
	return code == 0 && strings.Contains(out, "RUNNING"), out
}

// requireServiceRunning fails unless the service is running, asking a few
// times first: on a loaded machine Wine's service manager can answer
// slowly or report the service still starting.
func (w *wine) requireServiceRunning(when string) {
	w.t.Helper()
	var out string
	for range 5 {
		var running bool
		if running, out = w.serviceQuery(); running {
			return
		}
		time.Sleep(time.Second)
	}
	w.t.Errorf("ctrld's service is not running %s; sc query says:\n%s", when, out)
}

func TestWineInstallSucceedsAndUninstallsClean(t *testing.T) {
	t.Parallel()
	forEachWineArch(t, func(t *testing.T, arch, installDir string) {
		msi, _ := builtMSI(t, arch, "1.2.3")
		w := newWine(t)
		w.scenario("start.echo-token=1", "record="+calls)
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
		if c := w.read(calls); !strings.Contains(c, "start --cd-org=sha256:") || !strings.Contains(c, "--custom-hostname=win-07") {
			t.Fatalf("ctrld calls %q", c)
		}
		w.requireServiceRunning("after the install")
		// The line is also in the Application event log... which Wine keeps
		// nowhere readable; `ctrld-install last` reads the record.
		out, code = w.run(w.path(installDir+`\ctrld-install.exe`), "last")
		if code != 0 || strings.TrimSpace(out) != "provisioning complete (exit 0)" {
			t.Fatalf("ctrld-install last: %d %q", code, out)
		}

		// Every file the wrapper and ctrld may leave in the install folder
		// (a killed run's tree marker among them) goes with it.
		for _, name := range names.InstallFolderFiles {
			f, err := os.OpenFile(w.path(installDir+`\`+name), os.O_CREATE|os.O_WRONLY, 0o600)
			if err != nil {
				t.Fatal(err)
			}
			f.Close()
		}
		out, code = w.run("msiexec", "/x", msi, "/qn", "/l*v", `C:\msiexec-uninstall.log`)
		if code != 0 {
			t.Fatalf("msiexec /x: exit %d\n%s", code, out)
		}
		for _, gone := range []string{installDir, controlD} {
			if w.exists(gone) {
				entries, _ := os.ReadDir(w.path(gone))
				t.Errorf("%s left behind: %v", gone, entries)
			}
		}
		if c := w.read(calls); !strings.Contains(c, "uninstall") {
			t.Errorf("the service was not uninstalled: %q", c)
		}
		if running, _ := w.serviceQuery(); running {
			t.Error("ctrld's service still runs after the uninstall")
		}
		w.noCanaryLeftBehind(msiLog, `C:\msiexec-uninstall.log`)
	})
}

func TestWineFailureRollsBackAndRecordsTheCode(t *testing.T) {
	t.Parallel()
	forEachWineArch(t, func(t *testing.T, arch, installDir string) {
		msi, _ := builtMSI(t, arch, "1.2.3")
		w := newWine(t)
		w.scenario("start.echo-token=1", "start.fail=listener,LISTENER_BIND_FAILED,41")
		out, code := w.run("msiexec", "/i", msi, "/qn", "/l*v", msiLog, "PROVISION_TOKEN="+testenv.Canary)
		if code != exitInstallFailure && code != exitWineFailure {
			t.Fatalf("msiexec: exit %d, want 1603 (Windows) or 1627 (Wine), cut to 8 bits\n%s", code, out)
		}
		if w.exists(installDir + `\ctrld.exe`) {
			t.Fatal("files not rolled back")
		}
		if got := w.read(lastResult); got != "provisioning failed: stage=listener code=LISTENER_BIND_FAILED (exit 41)\n" {
			t.Fatalf("last result %q (must survive the rollback)", got)
		}
		w.noCanaryLeftBehind(msiLog)
	})
}

// A new version removes the old one (RemoveExistingProducts), without
// running the uninstall action (that is for a real removal), and
// provisions again.
func TestWineMajorUpgradeReplacesThePreviousVersion(t *testing.T) {
	t.Parallel()
	forEachWineArch(t, func(t *testing.T, arch, installDir string) {
		old, _ := builtMSI(t, arch, "1.2.3")
		next, _ := builtMSI(t, arch, "1.2.4")
		oldCode := guid("product", "1.2.3", arch)
		w := newWine(t)
		w.scenario("record=" + calls)
		if out, code := w.run("msiexec", "/i", old, "/qn", "PROVISION_TOKEN="+testenv.Canary); code != 0 {
			t.Fatalf("install 1.2.3: exit %d\n%s", code, out)
		}
		if out, code := w.run("msiexec", "/i", next, "/qn", "/l*v", msiLog, "PROVISION_TOKEN="+testenv.Canary); code != 0 {
			t.Fatalf("upgrade to 1.2.4: exit %d\n%s\n%s", code, out, w.read(msiLog))
		}
		if _, code := w.run("msiexec", "/x", oldCode, "/qn"); code != exitUnknownProduct {
			t.Errorf("1.2.3 is still installed after the upgrade (msiexec /x: exit %d, want 1605)", code)
		}
		if !w.exists(installDir + `\ctrld.exe`) {
			t.Error("the upgrade left no ctrld")
		}
		// Windows removes the old product with UPGRADINGPRODUCTCODE set, so
		// its UninstallService action (condition in TestTables) stays out;
		// Wine 8 does not set it, runs the action, and the new version's
		// start installs the service again. Hence no assertion on
		// "uninstall" here, only on the outcome.
		if c := w.read(calls); strings.Count(c, "start ") != 2 {
			t.Errorf("ctrld calls during the upgrade: %q", c)
		}
		t.Logf("Wine set UPGRADINGPRODUCTCODE in the upgrade log: %v", strings.Contains(w.read(msiLog), "UPGRADINGPRODUCTCODE"))
		w.requireServiceRunning("after the upgrade")
		if got := w.read(lastResult); got != "provisioning complete (exit 0)\n" {
			t.Errorf("last result %q", got)
		}
		w.noCanaryLeftBehind(msiLog)
	})
}

// The Win32 / RMM mode: ctrld-install runs msiexec and exits with the
// stage code, which is what reaches the Intune console.
func TestWineWin32ModeExitsWithStageCode(t *testing.T) {
	t.Parallel()
	forEachWineArch(t, func(t *testing.T, arch, _ string) {
		msi, wrapper := builtMSI(t, arch, "1.2.3")
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
		// install-msi writes msiexec's verbose log into the record folder,
		// not a temp folder; Wine (unlike Windows) writes hidden properties
		// into it.
		const msiexecLog = recordDir + `\ctrld-install-msiexec.log`
		if !w.exists(msiexecLog) || w.exists(`C:\windows\temp\ctrld-install-msiexec.log`) {
			t.Error("msiexec's verbose log is not in the record folder")
		}
		w.noCanaryLeftBehind(msiexecLog)
	})
}

// Windows Installer checks the summary Template before anything else:
// on x64 the Arm64 package is refused as unsupported on this platform,
// and nothing is installed.
func TestWineRefusesTheArm64PackageOnX64(t *testing.T) {
	t.Parallel()
	msi, _ := builtMSI(t, ArchArm64, "1.2.3")
	w := newWine(t)
	w.scenario("record=" + calls)
	out, code := w.run("msiexec", "/i", msi, "/qn", "/l*v", msiLog, "PROVISION_TOKEN="+testenv.Canary)
	if code != exitPlatformRefused {
		t.Fatalf("msiexec /i of the Arm64 package: exit %d, want 1633 cut to 8 bits (%d)\n%s\n%s", code, exitPlatformRefused, out, w.read(msiLog))
	}
	if w.exists(installDirs[ArchX64]) || w.read(calls) != "" {
		t.Error("the refused package installed or ran something")
	}
}
