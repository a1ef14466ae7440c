package windows

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/ctrld-install/ctrld-install/installers/signing"
	"github.com/ctrld-install/ctrld-install/installers/signing/signingtest"
)

// A Package with a Signer writes what signing its unsigned MSI gives, and
// says it signed it; one without says it did not.
func TestBuildSignsWithItsSigner(t *testing.T) {
	ctrld, wrapper := fakeExes(t)
	p := pkg(ArchX64, ctrld, wrapper)
	var unsigned bytes.Buffer
	if signed, err := p.Build(&unsigned); err != nil || signed {
		t.Fatalf("unsigned build: signed=%v, %v", signed, err)
	}
	id := signingtest.NewPKI(t).Leaf(t, signingtest.Windows()).Identity()
	want := filepath.Join(t.TempDir(), p.FileName())
	if err := os.WriteFile(want, unsigned.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := signing.SignMSI(id, want); err != nil {
		t.Fatal(err)
	}
	p.Signer = id
	var got bytes.Buffer
	if signed, err := p.Build(&got); err != nil || !signed {
		t.Fatalf("signed build: signed=%v, %v", signed, err)
	}
	if wantBytes, _ := os.ReadFile(want); !bytes.Equal(got.Bytes(), wantBytes) {
		t.Error("the signed build differs from the unsigned MSI signed afterwards")
	}
}

// An identity that may not sign code fails the build.
func TestBuildRefusesAnInstallerCertificate(t *testing.T) {
	ctrld, wrapper := fakeExes(t)
	p := pkg(ArchX64, ctrld, wrapper)
	p.Signer = signingtest.NewPKI(t).Leaf(t, signingtest.Installer()).Identity()
	if _, err := p.Build(&bytes.Buffer{}); err == nil {
		t.Fatal("signed with a macOS installer certificate")
	}
}
