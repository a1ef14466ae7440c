package windows

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/testenv"
)

var epoch = time.Unix(1_700_000_000, 0).UTC()

// fakeExes stand in for the Windows binaries: these tests read tables.
func fakeExes(t *testing.T) (ctrld, wrapper string) {
	dir := t.TempDir()
	ctrld, wrapper = filepath.Join(dir, "ctrld.exe"), filepath.Join(dir, "ctrld-install.exe")
	os.WriteFile(ctrld, []byte("MZ fake ctrld"), 0o755)
	os.WriteFile(wrapper, []byte("MZ fake wrapper"), 0o755)
	return ctrld, wrapper
}

func buildMSI(t *testing.T, p Package) string {
	t.Helper()
	testenv.RequireTool(t, "wixl")
	out := filepath.Join(t.TempDir(), p.FileName())
	if err := p.Build(out); err != nil {
		t.Fatal(err)
	}
	return out
}

// table returns a table's rows (header lines dropped) as tab-split fields.
func table(t *testing.T, msi, name string) [][]string {
	t.Helper()
	out, err := exec.Command("msiinfo", "export", msi, name).Output()
	if err != nil {
		t.Fatalf("msiinfo export %s: %v", name, err)
	}
	var rows [][]string
	for i, line := range strings.Split(strings.TrimRight(string(out), "\r\n"), "\n") {
		if i >= 3 {
			rows = append(rows, strings.Split(strings.TrimRight(line, "\r"), "\t"))
		}
	}
	return rows
}

func row(rows [][]string, key string) []string {
	for _, r := range rows {
		if r[0] == key {
			return r
		}
	}
	return nil
}

func TestTables(t *testing.T) {
	ctrld, wrapper := fakeExes(t)
	t.Setenv("CTRLD_PROVISION_TOKEN", testenv.Canary) // must not leak into the build
	msi := buildMSI(t, Package{Version: "1.2.3", Arch: "x64", Ctrld: ctrld, Wrapper: wrapper, MTime: epoch})

	ca := row(table(t, msi, "CustomAction"), "Provision")
	typ, _ := strconv.Atoi(ca[1])
	for bit, name := range map[int]string{CATypeExeFromFile: "EXE from an installed file", CAInScript: "deferred", CANoImpersonate: "no impersonate", CAHideTarget: "HideTarget"} {
		if typ&bit != bit {
			t.Errorf("Provision type %d lacks %s", typ, name)
		}
	}
	if typ&CAContinue != 0 || typ&0x3f != CATypeExeFromFile {
		t.Errorf("Provision type %d: must be Return=check, EXE from file", typ)
	}
	if ca[2] != "ctrld_install.exe" || !strings.HasPrefix(ca[3], `start --token "[PROVISION_TOKEN]"`) {
		t.Errorf("Provision source/target %q", ca)
	}

	seq := table(t, msi, "InstallExecuteSequence")
	provision, install := row(seq, "Provision"), row(seq, "InstallFiles")
	p, _ := strconv.Atoi(provision[2])
	i, _ := strconv.Atoi(install[2])
	if p <= i || provision[1] != "NOT Installed AND NOT REMOVE" {
		t.Errorf("Provision at %d (InstallFiles %d), condition %q", p, i, provision[1])
	}
	un := row(seq, "UninstallService")
	u, _ := strconv.Atoi(un[2])
	rf, _ := strconv.Atoi(row(seq, "RemoveFiles")[2])
	if u >= rf || un[1] != `REMOVE="ALL" AND NOT UPGRADINGPRODUCTCODE` {
		t.Errorf("UninstallService at %d (RemoveFiles %d), condition %q", u, rf, un[1])
	}

	props := table(t, msi, "Property")
	if r := row(props, "MsiHiddenProperties"); r == nil || r[1] != PropToken {
		t.Errorf("MsiHiddenProperties %v", r)
	}
	if row(props, PropToken) != nil {
		t.Error("the token property has a default value")
	}
	secure := row(props, "SecureCustomProperties")
	for _, p := range Properties {
		if !strings.Contains(secure[1], p) {
			t.Errorf("%s not secure: %s", p, secure[1])
		}
	}
	if r := row(props, "UpgradeCode"); r == nil || r[1] != UpgradeCode {
		t.Errorf("UpgradeCode %v", r)
	}

	files := table(t, msi, "File")
	if row(files, "ctrld.exe") == nil || row(files, "ctrld_install.exe") == nil {
		t.Errorf("files %v", files)
	}
	if len(table(t, msi, "Upgrade")) != 2 {
		t.Error("MajorUpgrade rows missing")
	}
	noCanaryInTables(t, msi)
}

func noCanaryInTables(t *testing.T, msi string) {
	t.Helper()
	names, _ := exec.Command("msiinfo", "tables", msi).Output()
	for _, name := range strings.Fields(string(names)) {
		out, _ := exec.Command("msiinfo", "export", msi, name).Output()
		if bytes.Contains(out, []byte(testenv.Canary)) {
			t.Errorf("canary token in table %s", name)
		}
	}
	suminfo, _ := exec.Command("msiinfo", "suminfo", msi).Output()
	raw, _ := os.ReadFile(msi)
	if bytes.Contains(suminfo, []byte(testenv.Canary)) || bytes.Contains(raw, []byte(testenv.Canary)) {
		t.Error("canary token in the MSI")
	}
}

func TestReproducibleAndDerivedCodes(t *testing.T) {
	ctrld, wrapper := fakeExes(t)
	p := Package{Version: "1.2.3", Arch: "x64", Ctrld: ctrld, Wrapper: wrapper, MTime: epoch}
	a, _ := os.ReadFile(buildMSI(t, p))
	b, _ := os.ReadFile(buildMSI(t, p))
	if !bytes.Equal(a, b) {
		t.Fatal("two builds with the same inputs differ")
	}
	next := p
	next.Version = "1.2.4"
	m1, m2 := buildMSI(t, p), buildMSI(t, next)
	pc1, pc2 := row(table(t, m1, "Property"), "ProductCode")[1], row(table(t, m2, "Property"), "ProductCode")[1]
	if pc1 == pc2 {
		t.Error("a new version must get a new ProductCode (major upgrade)")
	}
	if c1, c2 := row(table(t, m1, "Component"), "Ctrld")[1], row(table(t, m2, "Component"), "Ctrld")[1]; c1 != c2 {
		t.Error("component GUIDs must not change between versions")
	}
	s1, _ := exec.Command("msiinfo", "suminfo", m1).Output()
	if !strings.Contains(string(s1), "Created: Tue Nov 14 22:13:20 2023") {
		t.Errorf("summary times not pinned:\n%s", s1)
	}
}

func TestArm64IsRefusedClearly(t *testing.T) {
	ctrld, wrapper := fakeExes(t)
	err := Package{Version: "1.0.0", Arch: "arm64", Ctrld: ctrld, Wrapper: wrapper, MTime: epoch}.Build(filepath.Join(t.TempDir(), "x.msi"))
	if err == nil || !strings.Contains(err.Error(), "x64 packages only") {
		t.Fatalf("got %v", err)
	}
}

func TestMissingToolNamesThePackage(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	err := requireTools("wixl")
	if err == nil || !strings.Contains(err.Error(), "sudo apt-get install wixl") {
		t.Fatalf("got %v", err)
	}
}

// selfSigned writes a throwaway code-signing certificate and key (PEM).
func selfSigned(t *testing.T) (cert, key string) {
	priv, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "ctrld-install test signer"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageCodeSigning},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &priv.PublicKey, priv)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, _ := x509.MarshalPKCS8PrivateKey(priv)
	dir := t.TempDir()
	cert, key = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	os.WriteFile(cert, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	os.WriteFile(key, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), 0o600)
	return cert, key
}

func TestAuthenticodeSigning(t *testing.T) {
	osslsigncode := testenv.RequireTool(t, "osslsigncode")
	testenv.RequireTool(t, "msiextract")
	cert, key := selfSigned(t)
	dir := t.TempDir()
	ctrld := filepath.Join(dir, "ctrld.exe")
	wrapper := testenv.GoBuild(t, dir, "ctrld-install.exe", "./wrapper", "GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0")
	os.WriteFile(ctrld, []byte("MZ fake ctrld"), 0o755)
	msi := buildMSI(t, Package{Version: "1.0.0", Arch: "x64", Ctrld: ctrld, Wrapper: wrapper, MTime: epoch, Cert: cert, Key: key})

	verify := func(path string) {
		t.Helper()
		out, err := exec.Command(osslsigncode, "verify", "-CAfile", cert, "-in", path).CombinedOutput()
		if err != nil || !strings.Contains(string(out), "Signature verification: ok") {
			t.Errorf("%s: %v\n%s", filepath.Base(path), err, out)
		}
	}
	verify(msi)
	extracted := t.TempDir()
	if out, err := exec.Command("msiextract", "-C", extracted, msi).CombinedOutput(); err != nil {
		t.Fatalf("msiextract: %v\n%s", err, out)
	}
	var signed string
	filepath.Walk(extracted, func(p string, info os.FileInfo, err error) error {
		if err == nil && info.Name() == "ctrld-install.exe" {
			signed = p
		}
		return nil
	})
	verify(signed)
}
