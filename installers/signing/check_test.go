package signing_test

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/asn1"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/installers/signing"
	"github.com/ctrld-install/ctrld-install/installers/signing/signingtest"
)

func TestCheckAcceptsTheRightCertificates(t *testing.T) {
	t.Parallel()
	pki := signingtest.NewPKI(t)
	for _, c := range []struct {
		name    string
		o       signingtest.Options
		purpose signing.Purpose
	}{
		{"windows", signingtest.Windows(), signing.WindowsCode},
		{"pkg", signingtest.Installer(), signing.MacInstaller},
		{"Mach-O", signingtest.Application(), signing.MacCode},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := pki.Leaf(t, c.o).Identity().Check(c.purpose, time.Now()); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestCheckRefusesWithAClearMessage(t *testing.T) {
	t.Parallel()
	pki := signingtest.NewPKI(t)
	win := pki.Leaf(t, signingtest.Windows())
	mac := pki.Leaf(t, signingtest.Installer())
	other, _ := rsa.GenerateKey(rand.Reader, 2048)
	expired := signingtest.Windows()
	expired.NotBefore, expired.NotAfter = time.Now().Add(-48*time.Hour), time.Now().Add(-time.Hour)
	future := signingtest.Installer()
	future.NotBefore, future.NotAfter = time.Now().Add(time.Hour), time.Now().Add(48*time.Hour)
	application := signingtest.Installer()
	application.Markers = []asn1.ObjectIdentifier{signing.OIDDeveloperIDApplication}
	noEKU := signingtest.Windows()
	noEKU.ExtKeyUsage = nil
	encipherOnly := signingtest.Installer()
	encipherOnly.KeyUsage = x509.KeyUsageKeyEncipherment

	cases := []struct {
		name    string
		id      *signing.Identity
		purpose signing.Purpose
		want    string
	}{
		{"key of another certificate", &signing.Identity{Chain: win.Chain(), Key: other}, signing.WindowsCode, "does not belong to the certificate"},
		{"expired", pki.Leaf(t, expired).Identity(), signing.WindowsCode, "expired on"},
		{"not yet valid", pki.Leaf(t, future).Identity(), signing.MacInstaller, "not valid before"},
		{"code-signing certificate for a pkg", win.Identity(), signing.MacInstaller, "1.2.840.113635.100.4.13 missing"},
		{"installer certificate for Windows", mac.Identity(), signing.WindowsCode, "codeSigning"},
		{"no extended key usage", pki.Leaf(t, noEKU).Identity(), signing.WindowsCode, "not a Windows code signing certificate"},
		{"key usage without digital signature", pki.Leaf(t, encipherOnly).Identity(), signing.MacInstaller, "does not allow digital signatures"},
		{"Developer ID Application", pki.Leaf(t, application).Identity(), signing.MacInstaller, "Developer ID Application"},
		{"chain out of order", &signing.Identity{Chain: []*x509.Certificate{win.Cert, win.PKI.Root, win.PKI.Intermediate}, Key: win.Key}, signing.WindowsCode, "leaf first"},
		{"no key", &signing.Identity{Chain: win.Chain()}, signing.WindowsCode, "no certificate or no key"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.id.Check(c.purpose, time.Now())
			if err == nil || !errors.Is(err, signing.ErrIdentity) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Check = %v, want an identity error containing %q", err, c.want)
			}
			for _, l := range []*signingtest.Leaf{win, mac} {
				if l.Leaks(t, []byte(err.Error())) {
					t.Fatal("the error carries key material")
				}
			}
		})
	}
}
