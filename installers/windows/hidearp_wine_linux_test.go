package windows

import (
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// uninstallKey is where Windows Installer registers a product for
// Add/Remove Programs.
const uninstallKey = `HKLM\Software\Microsoft\Windows\CurrentVersion\Uninstall\`

// TestWineHideARPMarksTheProductASystemComponent installs the x64 package
// under Wine with HIDE_ARP=1: the product's Uninstall key gets
// SystemComponent=1, which keeps it out of Add/Remove Programs. Without
// the property the key is there and carries no SystemComponent.
func TestWineHideARPMarksTheProductASystemComponent(t *testing.T) {
	t.Parallel()
	msi, _ := builtMSI(t, ArchX64, "1.2.3")
	key := uninstallKey + guid("product", "1.2.3", ArchX64)
	w := newWine(t)
	w.scenario("record=" + calls)

	if out, code := w.run("msiexec", "/i", msi, "/qn", "PROVISION_TOKEN="+testenv.Canary, PropHideARP+"=1"); code != 0 {
		t.Fatalf("install with HIDE_ARP=1: exit %d\n%s", code, out)
	}
	out, code := w.run("reg", "query", key, "/v", "SystemComponent")
	if code != 0 || !strings.Contains(out, "0x1") {
		t.Errorf("HIDE_ARP=1: SystemComponent not 1 in %s (exit %d)\n%s", key, code, out)
	}
	if out, code := w.run("msiexec", "/x", msi, "/qn"); code != 0 {
		t.Fatalf("msiexec /x: exit %d\n%s", code, out)
	}

	if out, code := w.run("msiexec", "/i", msi, "/qn", "PROVISION_TOKEN="+testenv.Canary); code != 0 {
		t.Fatalf("install without HIDE_ARP: exit %d\n%s", code, out)
	}
	if out, code := w.run("reg", "query", key); code != 0 || !strings.Contains(out, "DisplayName") {
		t.Fatalf("the product is not registered in %s (exit %d)\n%s", key, code, out)
	}
	if out, code := w.run("reg", "query", key, "/v", "SystemComponent"); code == 0 && strings.Contains(out, "0x1") {
		t.Errorf("without HIDE_ARP the product is hidden:\n%s", out)
	}
	w.noCanaryLeftBehind()
}
