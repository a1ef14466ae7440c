package codesign

import (
	"bytes"
	"crypto/x509"
	"debug/macho"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	ourmacho "github.com/ctrld-install/ctrld-install/installers/macos/macho"
	"github.com/ctrld-install/ctrld-install/installers/signing/signingtest"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

const testIdentifier = "com.controld.ctrld-install"

var (
	buildOnce      sync.Once
	amd64, arm64   []byte
	buildErr       error
	fixtureWritten string
)

// darwinSlices are the test program built for both Mac architectures,
// once for every test: amd64 as Go links it (no signature) and arm64
// with the linker's ad-hoc signature.
func darwinSlices(t *testing.T) (x86, arm []byte) {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "codesign-test")
		if err != nil {
			buildErr = err
			return
		}
		fixtureWritten = dir
		for _, a := range []struct {
			arch string
			out  *[]byte
		}{{"amd64", &amd64}, {"arm64", &arm64}} {
			path := filepath.Join(dir, a.arch)
			if buildErr = testenv.Build(path, "./testdata/fakectrld", []string{"-ldflags=-s -w -buildid="}, "GOOS=darwin", "GOARCH="+a.arch, "CGO_ENABLED=0"); buildErr != nil {
				return
			}
			if *a.out, buildErr = os.ReadFile(path); buildErr != nil {
				return
			}
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return bytes.Clone(amd64), bytes.Clone(arm64)
}

func TestMain(m *testing.M) {
	code := m.Run()
	if fixtureWritten != "" {
		os.RemoveAll(fixtureWritten)
	}
	os.Exit(code)
}

func testSigner(t testing.TB, tsa string) (*Signer, *signingtest.Leaf) {
	t.Helper()
	leaf := signingtest.NewPKI(t).Leaf(t, signingtest.Application())
	id := leaf.Identity()
	id.TimestampURL = tsa
	return &Signer{Chain: id.Chain, Key: id.Key, Identifier: testIdentifier, SigningTime: signingtest.Now.Truncate(time.Second), Timestamper: id.Timestamper()}, leaf
}

func roots(leaf *signingtest.Leaf) *x509.CertPool {
	p := x509.NewCertPool()
	p.AddCert(leaf.PKI.Root)
	return p
}

// The amd64 slice Go links carries no signature at all; the arm64 one
// only the linker's ad-hoc signature, which has no certificate, no
// hardened runtime and no requirement.
func TestGoSlicesAreNotDeveloperIDSigned(t *testing.T) {
	x86, arm := darwinSlices(t)
	if _, err := Read(x86, nil); !errors.Is(err, ErrNotSigned) {
		t.Fatalf("amd64 as linked: %v, want ErrNotSigned", err)
	}
	sig, err := Read(arm, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !sig.Adhoc() || sig.Runtime() || sig.Requirement != "" || sig.Leaf != nil {
		t.Fatalf("arm64 as linked: %+v", sig)
	}
}

func TestSignRoundTrip(t *testing.T) {
	signer, leaf := testSigner(t, "")
	x86, arm := darwinSlices(t)
	for name, image := range map[string][]byte{"amd64": x86, "arm64": arm} {
		t.Run(name, func(t *testing.T) {
			signed, err := signer.Sign(image)
			if err != nil {
				t.Fatal(err)
			}
			sig, err := Read(signed, roots(leaf))
			if err != nil {
				t.Fatal(err)
			}
			wantReq := `identifier "com.controld.ctrld-install" and anchor apple generic and certificate leaf[subject.OU] = "TEAM000000"`
			switch {
			case sig.Identifier != testIdentifier || sig.TeamID != "TEAM000000":
				t.Errorf("identifier %q team %q", sig.Identifier, sig.TeamID)
			case !sig.Runtime() || sig.Adhoc():
				t.Errorf("flags %#x: want the hardened runtime, not ad hoc", sig.Flags)
			case sig.Requirement != wantReq:
				t.Errorf("requirement %s", sig.Requirement)
			case !sig.Leaf.Equal(leaf.Cert):
				t.Errorf("signed by %s", sig.Leaf.Subject)
			case !sig.SigningTime.Equal(signer.SigningTime):
				t.Errorf("signing time %s, want %s", sig.SigningTime, signer.SigningTime)
			case sig.Pages != int((sig.CodeLimit+PageSize-1)/PageSize):
				t.Errorf("%d pages for %d bytes", sig.Pages, sig.CodeLimit)
			}
		})
	}
}

// Any byte of the image the pages cover, changed, fails the signature;
// so does a signature checked against a root that did not issue it.
func TestReadRejectsTampering(t *testing.T) {
	signer, leaf := testSigner(t, "")
	x86, _ := darwinSlices(t)
	signed, err := signer.Sign(x86)
	if err != nil {
		t.Fatal(err)
	}
	sig, err := Read(signed, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, at := range []uint64{0x20, sig.CodeLimit / 2, sig.CodeLimit - 1} {
		bad := bytes.Clone(signed)
		bad[at] ^= 0x01
		if _, err := Read(bad, nil); err == nil {
			t.Errorf("byte %d changed: still verifies", at)
		}
	}
	cdAt := bytes.Index(signed, sig.CodeDirectory)
	bad := bytes.Clone(signed)
	bad[cdAt+len(sig.CodeDirectory)-1] ^= 0x01 // the last page hash
	if _, err := Read(bad, nil); err == nil {
		t.Error("a changed page hash still verifies")
	}
	other := signingtest.NewPKI(t).Leaf(t, signingtest.Windows())
	pool := x509.NewCertPool()
	pool.AddCert(other.Cert)
	if _, err := Read(signed, pool); err == nil {
		t.Error("verified against a root that did not issue the chain")
	}
	if _, err := Read(signed, roots(leaf)); err != nil {
		t.Error(err)
	}
}

// The headers a signature needs: LC_CODE_SIGNATURE names the SuperBlob
// at the end of the file, and __LINKEDIT, the last segment, ends there.
func TestSignedHeadersAsDebugMachoSeesThem(t *testing.T) {
	signer, _ := testSigner(t, "")
	x86, arm := darwinSlices(t)
	for name, image := range map[string][]byte{"amd64": x86, "arm64": arm} {
		signed, err := signer.Sign(image)
		if err != nil {
			t.Fatal(err)
		}
		f, err := macho.NewFile(bytes.NewReader(signed))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		le := f.Segment("__LINKEDIT")
		thin, _ := ourmacho.ParseThin(signed)
		sig := thin.Signature
		if le == nil || sig == nil || le.Offset+le.Filesz != uint64(len(signed)) || uint64(sig.DataOff+sig.DataLen) != uint64(len(signed)) || sig.DataOff%16 != 0 {
			t.Errorf("%s: __LINKEDIT %+v, signature %+v, file %d bytes", name, le, sig, len(signed))
		}
		if le.Memsz < le.Filesz || le.Memsz%thin.PageSize() != 0 {
			t.Errorf("%s: __LINKEDIT vmsize %#x for filesize %#x", name, le.Memsz, le.Filesz)
		}
		if len(f.Loads) != int(thin.NCmds) {
			t.Errorf("%s: %d load commands, header says %d", name, len(f.Loads), thin.NCmds)
		}
	}
}

func TestSignFileRebuildsTheUniversalBinary(t *testing.T) {
	signer, leaf := testSigner(t, "")
	fat := universal(t)
	signed, err := signer.SignFile(fat)
	if err != nil {
		t.Fatal(err)
	}
	ff, err := macho.NewFatFile(bytes.NewReader(signed))
	if err != nil {
		t.Fatal(err)
	}
	if len(ff.Arches) != 2 {
		t.Fatalf("%d arches", len(ff.Arches))
	}
	for _, a := range ff.Arches {
		if a.Offset%(1<<a.Align) != 0 {
			t.Errorf("%s slice misaligned at %d", a.Cpu, a.Offset)
		}
	}
	r, err := NewReader(signed, roots(leaf))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for {
		sig, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		n++
		if sig.Adhoc() || !sig.Runtime() {
			t.Errorf("CPU %#x: flags %#x", sig.CPU, sig.Flags)
		}
	}
	if n != 2 {
		t.Fatalf("%d slices read", n)
	}
}

func universal(t *testing.T) []byte {
	t.Helper()
	x86, arm := darwinSlices(t)
	var b bytes.Buffer
	if err := ourmacho.MergeSlices(&b, []ourmacho.Slice{{CPU: ourmacho.CPUTypeX86_64, SubCPU: 3, Data: x86}, {CPU: ourmacho.CPUTypeARM64, Data: arm}}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// A publisher's signature is kept byte for byte; the ad-hoc one beside
// it in the same universal file is replaced.
func TestKeepSignedKeepsOnlyCertificateSignatures(t *testing.T) {
	publisher, _ := testSigner(t, "")
	publisher.Identifier = "com.controld.ctrld"
	x86, arm := darwinSlices(t)
	signedX86, err := publisher.Sign(x86)
	if err != nil {
		t.Fatal(err)
	}
	var fat bytes.Buffer
	ourmacho.MergeSlices(&fat, []ourmacho.Slice{{CPU: ourmacho.CPUTypeX86_64, SubCPU: 3, Data: signedX86}, {CPU: ourmacho.CPUTypeARM64, Data: arm}})
	ours, _ := testSigner(t, "")
	ours.KeepSigned = true
	out, err := ours.SignFile(fat.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	slices, _ := ourmacho.Split(out)
	if !bytes.Equal(slices[0].Data, signedX86) {
		t.Error("the publisher's amd64 signature was replaced")
	}
	sig, err := Read(slices[1].Data, nil)
	if err != nil || sig.Adhoc() || sig.Identifier != testIdentifier {
		t.Errorf("arm64: %+v, %v", sig, err)
	}
	whole, err := ours.SignFile(signedX86)
	if err != nil || !bytes.Equal(whole, signedX86) {
		t.Errorf("a signed thin file was changed (%v)", err)
	}
	broken := bytes.Clone(signedX86)
	broken[100] ^= 1
	if _, err := ours.SignFile(broken); err == nil || !strings.Contains(err.Error(), "publisher") {
		t.Errorf("a broken publisher signature: %v", err)
	}
}

func TestSignNeedsATeam(t *testing.T) {
	signer, _ := testSigner(t, "")
	leaf := *signer.Chain[0]
	leaf.Subject.OrganizationalUnit = nil
	signer.Chain = append([]*x509.Certificate{&leaf}, signer.Chain[1:]...)
	x86, _ := darwinSlices(t)
	if _, err := signer.Sign(x86); err == nil || !strings.Contains(err.Error(), "team") {
		t.Fatalf("no team ID: %v", err)
	}
	signer.TeamID = "OTHERTEAM1"
	signed, err := signer.Sign(x86)
	if err != nil {
		t.Fatal(err)
	}
	if sig, err := Read(signed, nil); err != nil || sig.TeamID != "OTHERTEAM1" {
		t.Fatalf("%+v %v", sig, err)
	}
}
