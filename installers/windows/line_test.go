//go:build linux

package windows

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A client-line MSI installs ctrld-client.exe under its own name, in a
// component of its own; the v1 MSI's component keeps the GUID it always
// had, so its upgrades stay as they were.
func TestClientLineMSI(t *testing.T) {
	v1, wrapper := randomExes(t, 50_000)
	client := filepath.Join(t.TempDir(), "ctrld-client.exe")
	data, _ := os.ReadFile(v1)
	if err := os.WriteFile(client, data, 0o755); err != nil {
		t.Fatal(err)
	}
	v1MSI, clientMSI := buildMSI(t, pkg(ArchX64, v1, wrapper)), buildMSI(t, pkg(ArchX64, client, wrapper))

	file := row(table(t, clientMSI, "File"), keyCtrld)
	if file == nil || !strings.HasSuffix(file[2], "|ctrld-client.exe") {
		t.Fatalf("client MSI's ctrld file row %q", file)
	}
	if v1File := row(table(t, v1MSI, "File"), keyCtrld); v1File == nil || v1File[2] != "ctrld.exe" {
		t.Fatalf("v1 MSI's ctrld file row %q", v1File)
	}
	v1Component, clientComponent := row(table(t, v1MSI, "Component"), componentCtrld)[1], row(table(t, clientMSI, "Component"), componentCtrld)[1]
	if v1Component != guid("component", "ctrld", ArchX64) {
		t.Errorf("the v1 component GUID changed: %s", v1Component)
	}
	if clientComponent == v1Component {
		t.Error("ctrld-client.exe shares the component of ctrld.exe")
	}
}
