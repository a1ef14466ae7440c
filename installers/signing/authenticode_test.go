package signing_test

import (
	"bytes"
	"debug/pe"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/installers/signing"
	"github.com/ctrld-install/ctrld-install/installers/signing/signingtest"
	"github.com/ctrld-install/ctrld-install/installers/windows"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// osslVerify runs osslsigncode, an independent C implementation, which
// recomputes the file's digest and checks the chain against ca.
func osslVerify(t *testing.T, path, ca string) (string, error) {
	t.Helper()
	testenv.RequireTool(t, "osslsigncode")
	out, err := exec.Command("osslsigncode", "verify", "-in", path, "-CAfile", ca).CombinedOutput()
	return string(out), err
}

func requireVerified(t *testing.T, path, ca string) string {
	t.Helper()
	out, err := osslVerify(t, path, ca)
	if err != nil || !strings.Contains(out, "Succeeded") {
		t.Fatalf("osslsigncode verify %s: %v\n%s", filepath.Base(path), err, out)
	}
	return out
}

// requireRejected wants the failure to be the recomputed digest, not a
// file osslsigncode cannot read.
func requireRejected(t *testing.T, path, ca string) {
	t.Helper()
	out, err := osslVerify(t, path, ca)
	if err == nil || !strings.Contains(out, "MISMATCH") {
		t.Fatalf("osslsigncode did not find the digest changed in %s: %v\n%s", filepath.Base(path), err, out)
	}
}

func TestSignPEEveryWindowsArchitecture(t *testing.T) {
	t.Parallel()
	testenv.RequireTool(t, "osslsigncode")
	leaf := signingtest.NewPKI(t).Leaf(t, signingtest.Windows())
	files := leaf.Write(t, t.TempDir())
	for _, c := range []struct {
		arch  string
		magic uint16 // optional header: PE32 or PE32+
	}{{"amd64", 0x20b}, {"386", 0x10b}, {"arm64", 0x20b}} {
		t.Run(c.arch, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			exe := shared.GoBuild(t, dir, "ctrld-install.exe", "./wrapper", "GOOS=windows", "GOARCH="+c.arch, "CGO_ENABLED=0")
			checkPEKind(t, exe, c.magic)
			if out, err := osslVerify(t, exe, files.CA); err == nil {
				t.Fatalf("the unsigned build verified:\n%s", out)
			}
			signed := filepath.Join(dir, "signed.exe")
			if err := signing.SignPEFile(leaf.Identity(), exe, signed); err != nil {
				t.Fatal(err)
			}
			out := requireVerified(t, signed, files.CA)
			if !strings.Contains(out, "sha256") && !strings.Contains(out, "SHA256") {
				t.Errorf("not a SHA-256 signature:\n%s", out)
			}
			data := readFile(t, signed)
			if leaf.Leaks(t, data) {
				t.Fatal("the signed executable carries key material")
			}
			again := filepath.Join(dir, "again.exe")
			if err := signing.SignPEFile(leaf.Identity(), exe, again); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(data, readFile(t, again)) {
				t.Error("two signatures of the same executable differ")
			}
			// Signing a signed file replaces its signature.
			if err := signing.SignPEFile(leaf.Identity(), signed, again); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(data, readFile(t, again)) {
				t.Error("re-signing did not replace the signature")
			}
			tamperPE(t, signed)
			requireRejected(t, signed, files.CA)
		})
	}
}

func checkPEKind(t *testing.T, path string, magic uint16) {
	t.Helper()
	f, err := pe.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var got uint16
	switch h := f.OptionalHeader.(type) {
	case *pe.OptionalHeader32:
		got = h.Magic
	case *pe.OptionalHeader64:
		got = h.Magic
	}
	if got != magic {
		t.Fatalf("optional header magic %#x, want %#x", got, magic)
	}
}

// tamperPE flips one byte inside the first section's code.
func tamperPE(t *testing.T, path string) {
	t.Helper()
	f, err := pe.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	off := int64(f.Sections[0].Offset) + int64(f.Sections[0].Size)/2
	f.Close()
	flipByte(t, path, off)
}

func flipByte(t *testing.T, path string, off int64) {
	t.Helper()
	data := readFile(t, path)
	data[off] ^= 0x01
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestSignPERefusesWhatIsNotAnExecutable(t *testing.T) {
	t.Parallel()
	leaf := signingtest.NewPKI(t).Leaf(t, signingtest.Windows())
	var out bytes.Buffer
	err := signing.SignPE(leaf.Identity(), strings.NewReader("MZ but nothing else"), &out)
	if err == nil || out.Len() != 0 {
		t.Fatalf("SignPE = %v with %d bytes written; want an error and nothing written", err, out.Len())
	}
}

func TestSignRefusesABadIdentityBeforeWriting(t *testing.T) {
	t.Parallel()
	pki := signingtest.NewPKI(t)
	mac := pki.Leaf(t, signingtest.Installer())
	var out bytes.Buffer
	err := signing.SignPE(mac.Identity(), strings.NewReader("MZ"), &out)
	if err == nil || !strings.Contains(err.Error(), "code signing") || out.Len() != 0 {
		t.Fatalf("SignPE with an installer certificate = %v (%d bytes out)", err, out.Len())
	}
	msi := filepath.Join(t.TempDir(), "x.msi")
	os.WriteFile(msi, []byte("not touched"), 0o644)
	if err := signing.SignMSI(mac.Identity(), msi); err == nil {
		t.Fatal("SignMSI signed with an installer certificate")
	}
	if string(readFile(t, msi)) != "not touched" {
		t.Fatal("SignMSI wrote to the file before refusing")
	}
}

// buildMSI builds the windows package's MSI for arch (x64, arm64, x86)
// with that architecture's binaries.
func buildMSI(t *testing.T, dir, arch string) string {
	t.Helper()
	goarch := map[string]string{windows.ArchX64: "amd64", windows.ArchArm64: "arm64", windows.ArchX86: "386"}[arch]
	env := []string{"GOOS=windows", "GOARCH=" + goarch, "CGO_ENABLED=0"}
	ctrld := shared.GoBuild(t, dir, "ctrld.exe", "./testdata/fakectrld", env...)
	wrapper := shared.GoBuild(t, dir, "ctrld-install.exe", "./wrapper", env...)
	p := windows.Package{Version: "1.2.3", Arch: arch, Ctrld: ctrld, Wrapper: wrapper, MTime: time.Unix(1700000000, 0)}
	msi := filepath.Join(dir, p.FileName())
	f, err := os.Create(msi)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := p.Build(f); err != nil {
		t.Fatal(err)
	}
	return msi
}

// Every architecture's MSI, written in Go, signs and verifies.
func TestSignMSIEveryArchitecture(t *testing.T) {
	t.Parallel()
	testenv.RequireTool(t, "osslsigncode")
	leaf := signingtest.NewPKI(t).Leaf(t, signingtest.Windows())
	files := leaf.Write(t, t.TempDir())
	for _, arch := range []string{windows.ArchArm64, windows.ArchX86} {
		msi := buildMSI(t, t.TempDir(), arch)
		if err := signing.SignMSI(leaf.Identity(), msi); err != nil {
			t.Fatalf("%s: %v", arch, err)
		}
		requireVerified(t, msi, files.CA)
	}
}

// TestSignMSI signs the x64 MSI the windows package builds.
func TestSignMSI(t *testing.T) {
	t.Parallel()
	testenv.RequireTool(t, "osslsigncode")
	testenv.RequireTool(t, "msiinfo")
	py := "/usr/bin/python3"
	if exec.Command(py, "-c", "import olefile").Run() != nil {
		testenv.Unavailable(t, "python3-olefile not installed")
	}
	leaf := signingtest.NewPKI(t).Leaf(t, signingtest.Windows())
	files := leaf.Write(t, t.TempDir())
	dir := t.TempDir()
	msi := buildMSI(t, dir, windows.ArchX64)
	unsigned := readFile(t, msi)
	if err := signing.SignMSI(leaf.Identity(), msi); err != nil {
		t.Fatal(err)
	}
	requireVerified(t, msi, files.CA)
	streams, err := exec.Command("msiinfo", "streams", msi).CombinedOutput()
	if err != nil || !strings.Contains(string(streams), "DigitalSignature") || !strings.Contains(string(streams), "MsiDigitalSignatureEx") {
		t.Fatalf("msiinfo streams: %v\n%s", err, streams)
	}
	signed := readFile(t, msi)
	if leaf.Leaks(t, signed) {
		t.Fatal("the signed MSI carries key material")
	}

	// Deterministic: no signing time, no timestamp.
	again := filepath.Join(dir, "again.msi")
	os.WriteFile(again, unsigned, 0o644)
	if err := signing.SignMSI(leaf.Identity(), again); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(signed, readFile(t, again)) {
		t.Error("two signatures of the same MSI differ")
	}
	if err := signing.SignMSI(leaf.Identity(), again); err != nil {
		t.Fatal(err)
	}
	requireVerified(t, again, files.CA)

	// Timestamped: osslsigncode checks the token against the TSA's root.
	stamped := filepath.Join(dir, "stamped.msi")
	os.WriteFile(stamped, unsigned, 0o644)
	id := leaf.Identity()
	id.TimestampURL = leaf.PKI.StartTSA(t, testenv.RequireTool(t, "openssl"))
	if err := signing.SignMSI(id, stamped); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("osslsigncode", "verify", "-in", stamped, "-CAfile", files.CA, "-TSA-CAfile", files.CA).CombinedOutput(); err != nil ||
		!strings.Contains(string(out), "Timestamp Server Signature verification: ok") {
		t.Fatalf("timestamped MSI: %v\n%s", err, out)
	}

	// One byte of one stream changed, the compound file otherwise intact.
	script := `import olefile, sys
ole = olefile.OleFileIO(sys.argv[1], write_mode=True)
data = bytearray(ole.openstream(sys.argv[2]).read())
data[len(data) // 2] ^= 1
ole.write_stream(sys.argv[2], bytes(data))
ole.close()`
	if out, err := exec.Command(py, "-c", script, msi, "\x05SummaryInformation").CombinedOutput(); err != nil {
		t.Fatalf("tamper: %v\n%s", err, out)
	}
	requireRejected(t, msi, files.CA)
}

// With CTRLD_SIGN_TIMESTAMP_URL the signature carries an RFC 3161 token;
// osslsigncode checks it against the TSA's root.
func TestSignPEWithTimestamp(t *testing.T) {
	t.Parallel()
	testenv.RequireTool(t, "osslsigncode")
	openssl := testenv.RequireTool(t, "openssl")
	pki := signingtest.NewPKI(t)
	leaf := pki.Leaf(t, signingtest.Windows())
	files := leaf.Write(t, t.TempDir())
	id := leaf.Identity()
	id.TimestampURL = pki.StartTSA(t, openssl)
	dir := t.TempDir()
	exe := shared.GoBuild(t, dir, "ctrld-install.exe", "./wrapper", "GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0")
	signed := filepath.Join(dir, "signed.exe")
	if err := signing.SignPEFile(id, exe, signed); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("osslsigncode", "verify", "-in", signed, "-CAfile", files.CA, "-TSA-CAfile", files.CA).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "Succeeded") || !strings.Contains(string(out), "Timestamp Server Signature verification: ok") {
		t.Fatalf("osslsigncode verify: %v\n%s", err, out)
	}
}

func TestUnreachableTimestampAuthorityFails(t *testing.T) {
	t.Parallel()
	leaf := signingtest.NewPKI(t).Leaf(t, signingtest.Windows())
	id := leaf.Identity()
	id.TimestampURL = "http://127.0.0.1:1/"
	exe := shared.GoBuild(t, t.TempDir(), "ctrld-install.exe", "./wrapper", "GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0")
	var out bytes.Buffer
	f, _ := os.Open(exe)
	defer f.Close()
	if err := signing.SignPE(id, f, &out); err == nil || !strings.Contains(err.Error(), "timestamp") || out.Len() != 0 {
		t.Fatalf("SignPE = %v with %d bytes written", err, out.Len())
	}
}
