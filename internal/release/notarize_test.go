package release

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/installers/macos/notary"
	"github.com/ctrld-install/ctrld-install/installers/macos/notary/notarytest"
	"github.com/ctrld-install/ctrld-install/installers/macos/xar"
	"github.com/ctrld-install/ctrld-install/installers/signing/signingtest"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// smallSignedPkg writes a signed flat package into out, as dist would,
// with its SHA256SUMS and manifest.json.
func smallSignedPkg(t *testing.T, out string) string {
	t.Helper()
	var buf bytes.Buffer
	w := xar.NewWriter(&buf, time.Unix(1_700_000_000, 0))
	leaf := signingtest.NewPKI(t).Leaf(t, signingtest.Installer())
	w.Signer = &xar.Signer{Chain: leaf.Chain(), Key: leaf.Key}
	w.WriteHeader(&xar.Header{Name: "Distribution", Type: xar.TypeFile, Mode: 0o644})
	w.Write([]byte("<installer-gui-script/>\n"))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	name := "ctrld-1.2.3.pkg"
	if err := os.WriteFile(filepath.Join(out, name), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, size, _ := hashFile(filepath.Join(out, name))
	arts := []Artifact{{Name: name, OS: "darwin", Arch: "universal", Kind: "pkg", Size: size, SHA256: sum, Signed: true}}
	if err := writeSums(out, arts); err != nil {
		t.Fatal(err)
	}
	if err := writeManifest(out, Config{Version: "1.2.3"}, arts); err != nil {
		t.Fatal(err)
	}
	return name
}

// The two release steps after dist, as the mage targets run them: the
// pkg in the folder is notarized, stapled, and SHA256SUMS and
// manifest.json describe the stapled bytes.
func TestNotarizeThenStapleTheRelease(t *testing.T) {
	out := t.TempDir()
	name := smallSignedPkg(t, out)
	fake := notarytest.New(t)
	var progress bytes.Buffer
	if err := Notarize(context.Background(), out, fake.Getenv, &progress); err != nil {
		t.Fatalf("%v\n%s", err, &progress)
	}
	if err := Staple(context.Background(), out, fake.Getenv, &progress); err != nil {
		t.Fatalf("%v\n%s", err, &progress)
	}
	stapled, _ := os.ReadFile(filepath.Join(out, name))
	if _, err := notary.Check(stapled); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(stapled)
	sums, _ := os.ReadFile(filepath.Join(out, "SHA256SUMS"))
	if string(sums) != hex.EncodeToString(sum[:])+"  "+name+"\n" {
		t.Fatalf("SHA256SUMS does not describe the stapled pkg:\n%s", sums)
	}
	manifest, _ := os.ReadFile(filepath.Join(out, "manifest.json"))
	if !strings.Contains(string(manifest), hex.EncodeToString(sum[:])) {
		t.Fatalf("manifest.json does not describe the stapled pkg:\n%s", manifest)
	}
	for _, s := range fake.Secrets() {
		if testenv.HoldsPartOf(progress.Bytes(), s) {
			t.Fatalf("progress holds a secret:\n%s", &progress)
		}
	}
	t.Logf("progress:\n%s", &progress)
}
