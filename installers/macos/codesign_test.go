package macos

import (
	"bytes"
	"crypto/x509"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/installers/macos/codesign"
	"github.com/ctrld-install/ctrld-install/installers/macos/macho"
	"github.com/ctrld-install/ctrld-install/installers/signing/signingtest"
)

var (
	codeLeafOnce sync.Once
	codeLeaf     *signingtest.Leaf
)

// codeSigningLeaf is the Developer ID Application leaf of the signed
// package, made once so that two signed builds can be compared.
func codeSigningLeaf(t *testing.T) *signingtest.Leaf {
	t.Helper()
	codeLeafOnce.Do(func() { codeLeaf = signingtest.NewPKI(t).Leaf(t, signingtest.Application()) })
	return codeLeaf
}

// payloadBinaries are the files the package installs, by base name.
func payloadBinaries(t *testing.T, path string) map[string][]byte {
	t.Helper()
	data, err := openPkg(t, path).ReadFile("ctrld.pkg/Payload")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, e := range readCpioGz(t, data) {
		if len(e.data) > 0 {
			out[filepath.Base(e.h.Name)] = e.data
		}
	}
	return out
}

func rootsOf(leaf *signingtest.Leaf) *x509.CertPool {
	p := x509.NewCertPool()
	p.AddCert(leaf.PKI.Root)
	return p
}

// signaturesOf reads every slice's signature; an unsigned slice is nil.
func signaturesOf(t *testing.T, file []byte, roots *x509.CertPool) map[string]*codesign.Signature {
	t.Helper()
	slices, err := macho.Split(file)
	if err != nil {
		t.Fatal(err)
	}
	names := map[uint32]string{macho.CPUTypeX86_64: "x86_64", macho.CPUTypeARM64: "arm64"}
	out := map[string]*codesign.Signature{}
	for _, s := range slices {
		sig, err := codesign.Read(s.Data, roots)
		if err != nil && !errors.Is(err, codesign.ErrNotSigned) {
			t.Fatalf("%s: %v", names[s.CPU], err)
		}
		out[names[s.CPU]] = sig
	}
	return out
}

// Notarization wants every Mach-O in the package signed with a
// certificate, the hardened runtime on: both slices of both programs.
func TestEveryMachOInTheSignedPackageIsCodeSigned(t *testing.T) {
	t.Parallel()
	path, leaf := sharedSignedPkg(t)
	files := payloadBinaries(t, path)
	for name, identifier := range map[string]string{"ctrld": CtrldCodeIdentifier, "ctrld-install": WrapperCodeIdentifier} {
		sigs := signaturesOf(t, files[name], rootsOf(leaf))
		if len(sigs) != 2 {
			t.Fatalf("%s: %d slices", name, len(sigs))
		}
		for arch, sig := range sigs {
			switch {
			case sig == nil:
				t.Errorf("%s %s: no code signature", name, arch)
			case sig.Adhoc() || !sig.Runtime() || sig.Identifier != identifier || sig.TeamID != "TEAM000000":
				t.Errorf("%s %s: flags %#x identifier %q team %q", name, arch, sig.Flags, sig.Identifier, sig.TeamID)
			case !sig.SigningTime.Equal(epoch):
				t.Errorf("%s %s: signing time %s, want the package's %s", name, arch, sig.SigningTime, epoch)
			}
		}
	}
}

// Without a Mach-O identity the binaries go in as built: amd64 with no
// signature, arm64 with the linker's ad-hoc one.
func TestUnsignedPackageLeavesTheBinariesAsBuilt(t *testing.T) {
	t.Parallel()
	files := payloadBinaries(t, sharedUnsignedPkg(t))
	sigs := signaturesOf(t, files["ctrld-install"], nil)
	if sigs["x86_64"] != nil || sigs["arm64"] == nil || !sigs["arm64"].Adhoc() {
		t.Fatalf("unsigned build: %+v", sigs)
	}
}

// A ctrld its publisher signed keeps that signature byte for byte,
// while ctrld-install beside it is signed with the release's identity.
func TestPublisherSignedCtrldKeepsItsSignature(t *testing.T) {
	t.Parallel()
	pki := signingtest.NewPKI(t)
	publisher := pki.Leaf(t, signingtest.Application()).Identity()
	p := testPackage(t)
	dir := t.TempDir()
	var fat bytes.Buffer
	var slices []macho.Slice
	for _, path := range p.Ctrld {
		data, _ := os.ReadFile(path)
		s := &codesign.Signer{Chain: publisher.Chain, Key: publisher.Key, Identifier: "com.publisher.ctrld", TeamID: "PUBLISHER1", SigningTime: time.Unix(1e9, 0)}
		signed, err := s.Sign(data)
		if err != nil {
			t.Fatal(err)
		}
		th, _ := macho.ParseThin(signed)
		slices = append(slices, macho.Slice{CPU: th.CPU, SubCPU: th.SubCPU, Data: signed})
	}
	if err := macho.MergeSlices(&fat, slices); err != nil {
		t.Fatal(err)
	}
	ctrld := filepath.Join(dir, "ctrld")
	os.WriteFile(ctrld, fat.Bytes(), 0o755)
	p.Ctrld = []string{ctrld}
	p.CodeSigner = pki.Leaf(t, signingtest.Application()).Identity()
	files := payloadBinaries(t, buildPkg(t, p))
	if !bytes.Equal(files["ctrld"], fat.Bytes()) {
		t.Error("the publisher's ctrld was changed")
	}
	for arch, sig := range signaturesOf(t, files["ctrld-install"], nil) {
		if sig == nil || sig.Identifier != WrapperCodeIdentifier {
			t.Errorf("ctrld-install %s: %+v", arch, sig)
		}
	}
}

func TestBadCodeSigningIdentityWritesNothing(t *testing.T) {
	t.Parallel()
	p := testPackage(t)
	installer := signingtest.NewPKI(t).Leaf(t, signingtest.Installer())
	p.CodeSigner = installer.Identity()
	var out bytes.Buffer
	_, err := p.Build(&out)
	if err == nil || out.Len() != 0 || !strings.Contains(err.Error(), "Developer ID Installer certificate (it signs packages, not code") {
		t.Fatalf("Build = %v with %d bytes written", err, out.Len())
	}
	if installer.Leaks(t, []byte(err.Error())) {
		t.Fatal("the error carries key material")
	}
}
