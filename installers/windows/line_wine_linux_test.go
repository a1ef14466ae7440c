package windows

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// clientMSI is the x64 MSI of the client line: the fake ctrld under the
// client name, which makes it play that line (its service, its display
// name).
func clientMSI(t *testing.T) string {
	t.Helper()
	builtMSI(t, ArchX64, "2.0.0") // the shared Windows builds
	dir := t.TempDir()
	client := filepath.Join(dir, names.CtrldClient+".exe")
	data, err := os.ReadFile(winBinaries.ctrld)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(client, data, 0o755)
	p := Package{Version: "2.0.0", Arch: ArchX64, Ctrld: client, Wrapper: winBinaries.wrapper, MTime: epoch}
	msi := filepath.Join(dir, p.FileName())
	if err := writeFile(msi, p.Build); err != nil {
		t.Fatal(err)
	}
	return msi
}

// The client MSI installs ctrld-client.exe, the wrapper inside drives it
// and its service ctrld-client, and the removal takes both away.
func TestWineClientLineInstallsAndUninstalls(t *testing.T) {
	t.Parallel()
	msi := clientMSI(t)
	installDir := installDirs[ArchX64]
	w := newWine(t)
	w.scenario("record=" + calls)
	out, code := w.run("msiexec", "/i", msi, "/qn", "/l*v", msiLog, "PROVISION_TOKEN="+testenv.Canary)
	if code != 0 {
		t.Fatalf("msiexec /i: exit %d\n%s\n%s", code, out, w.read(msiLog))
	}
	if !w.exists(installDir+`\ctrld-client.exe`) || w.exists(installDir+`\ctrld.exe`) {
		t.Fatal("the client MSI did not install ctrld-client.exe alone")
	}
	if got := w.read(lastResult); got != "provisioning complete (exit 0)\n" {
		t.Fatalf("last result %q", got)
	}
	if c := w.read(calls); !strings.Contains(c, "start --cd-org=sha256:") {
		t.Fatalf("ctrld-client calls %q", c)
	}
	if out, code := w.run(w.path(installDir+`\ctrld-install.exe`), "last"); code != 0 || strings.TrimSpace(out) != "provisioning complete (exit 0)" {
		t.Fatalf("ctrld-install last: %d %q", code, out)
	}
	client := names.LineOf(names.CtrldClient)
	if out, code := w.run("sc", "query", client.Binary); code != 0 || !strings.Contains(out, "RUNNING") {
		t.Fatalf("sc query %s: exit %d\n%s", client.Binary, code, out)
	}
	// Wine's sc has no qc: the display name is read where the service
	// manager keeps it.
	key := `HKLM\System\CurrentControlSet\Services\` + client.Binary
	if out, code := w.run("reg", "query", key, "/v", "DisplayName"); code != 0 || !strings.Contains(out, client.DisplayName) {
		t.Fatalf("reg query %s: exit %d\n%s", key, code, out)
	}
	if out, code := w.run("sc", "query", names.Ctrld); code == 0 {
		t.Fatalf("a service named ctrld exists:\n%s", out)
	}
	out, code = w.run("msiexec", "/x", msi, "/qn", "/l*v", `C:\msiexec-uninstall.log`)
	if code != 0 {
		t.Fatalf("msiexec /x: exit %d\n%s", code, out)
	}
	if w.exists(installDir) {
		t.Errorf("%s left behind", installDir)
	}
	if out, code := w.run("sc", "query", client.Binary); code == 0 && strings.Contains(out, "RUNNING") {
		t.Errorf("%s still runs after the uninstall:\n%s", client.Binary, out)
	}
	w.noCanaryLeftBehind(msiLog, `C:\msiexec-uninstall.log`)
}

// A move from v1 to the client line is a major upgrade: the two MSIs
// share the UpgradeCode, so the v1 product and its ctrld.exe are gone
// before the client's files land, and one product remains.
func TestWineMoveToTheClientLineIsAMajorUpgrade(t *testing.T) {
	t.Parallel()
	v1, _ := builtMSI(t, ArchX64, "1.5.0")
	client := clientMSI(t)
	installDir := installDirs[ArchX64]
	w := newWine(t)
	w.scenario("record=" + calls)
	if out, code := w.run("msiexec", "/i", v1, "/qn", "PROVISION_TOKEN="+testenv.Canary); code != 0 {
		t.Fatalf("install v1: exit %d\n%s", code, out)
	}
	if out, code := w.run("msiexec", "/i", client, "/qn", "/l*v", msiLog, "PROVISION_TOKEN="+testenv.Canary); code != 0 {
		t.Fatalf("move to the client line: exit %d\n%s\n%s", code, out, w.read(msiLog))
	}
	if _, code := w.run("msiexec", "/x", guid("product", "1.5.0", ArchX64), "/qn"); code != exitUnknownProduct {
		t.Errorf("the v1 product is still installed after the move (msiexec /x: exit %d, want 1605)", code)
	}
	if w.exists(installDir+`\ctrld.exe`) || !w.exists(installDir+`\ctrld-client.exe`) {
		t.Error("after the move the folder does not hold ctrld-client.exe alone")
	}
	if out, code := w.run("sc", "query", names.CtrldClient); code != 0 || !strings.Contains(out, "RUNNING") {
		t.Errorf("ctrld-client's service after the move: exit %d\n%s", code, out)
	}
	// Windows leaves the old product's UninstallService action out of a
	// major upgrade, Wine 8 runs it: v1's service is the wrapper's to
	// move, so its state here is only reported.
	v1Service, code := w.run("sc", "query", names.Ctrld)
	t.Logf("v1's service after the move: sc query exit %d\n%s", code, v1Service)
	if got := w.read(lastResult); got != "provisioning complete (exit 0)\n" {
		t.Errorf("last result %q", got)
	}
	w.noCanaryLeftBehind(msiLog)
}
