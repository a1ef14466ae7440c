package release

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRestampRecordsTheStapledPkg(t *testing.T) {
	out := t.TempDir()
	write := func(name, data string) {
		if err := os.WriteFile(filepath.Join(out, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("ctrld-1.2.3.pkg", "signed pkg")
	write("ctrld_1.2.3_amd64.deb", "deb")
	var arts []Artifact
	for _, name := range []string{"ctrld-1.2.3.pkg", "ctrld_1.2.3_amd64.deb"} {
		sum, size, err := hashFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		arts = append(arts, Artifact{Name: name, Kind: "x", Size: size, SHA256: sum, Signed: true})
	}
	if err := writeSums(out, arts); err != nil {
		t.Fatal(err)
	}
	if err := writeManifest(out, Config{Version: "1.2.3"}, arts); err != nil {
		t.Fatal(err)
	}
	write("ctrld-1.2.3.pkg", "signed pkg, then a ticket")
	if err := Restamp(out, "ctrld-1.2.3.pkg"); err != nil {
		t.Fatal(err)
	}
	stapled := sha256.Sum256([]byte("signed pkg, then a ticket"))
	deb := sha256.Sum256([]byte("deb"))
	sums, _ := os.ReadFile(filepath.Join(out, "SHA256SUMS"))
	want := hex.EncodeToString(stapled[:]) + "  ctrld-1.2.3.pkg\n" + hex.EncodeToString(deb[:]) + "  ctrld_1.2.3_amd64.deb\n"
	if string(sums) != want {
		t.Fatalf("SHA256SUMS:\n%s\nwant:\n%s", sums, want)
	}
	var m Manifest
	data, _ := os.ReadFile(filepath.Join(out, "manifest.json"))
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	if m.Version != "1.2.3" || len(m.Artifacts) != 2 || m.Artifacts[0].Size != 25 ||
		m.Artifacts[0].SHA256 != hex.EncodeToString(stapled[:]) || !m.Artifacts[0].Signed || m.Artifacts[1].SHA256 != hex.EncodeToString(deb[:]) {
		t.Fatalf("manifest: %+v", m)
	}
	if err := Restamp(out, "other.pkg"); err == nil || !strings.Contains(err.Error(), "not in") {
		t.Fatalf("an unknown artifact: %v", err)
	}
}
