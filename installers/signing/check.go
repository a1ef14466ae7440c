package signing

import (
	"bytes"
	"crypto"
	"crypto/rsa"
	"crypto/x509"
	"encoding/asn1"
	"fmt"
	"slices"
	"time"
)

// Purpose is what a certificate must be good for.
type Purpose struct {
	Name string
	// ExtKeyUsage is one of these, named by Go or by OID.
	ExtKeyUsage   x509.ExtKeyUsage
	ExtKeyUsageID asn1.ObjectIdentifier
	// RSA is required (the xar RSA signature).
	RSA bool
	// WrongKind lists certificate markers that mean "another kind of
	// certificate", with the name to tell the user.
	WrongKind map[string]string
}

// Apple certificate extensions (Apple's Developer ID CPS, as seen on a
// Developer ID Installer chain).
var (
	// OIDAppleInstallerSigning is the package-signing extended key usage.
	OIDAppleInstallerSigning = asn1.ObjectIdentifier{1, 2, 840, 113635, 100, 4, 13}
	// OIDDeveloperIDInstaller marks a Developer ID Installer leaf.
	OIDDeveloperIDInstaller = asn1.ObjectIdentifier{1, 2, 840, 113635, 100, 6, 1, 14}
	// OIDDeveloperIDApplication marks a Developer ID Application leaf.
	OIDDeveloperIDApplication = asn1.ObjectIdentifier{1, 2, 840, 113635, 100, 6, 1, 13}
	// OIDDeveloperIDCA marks the Developer ID intermediate.
	OIDDeveloperIDCA = asn1.ObjectIdentifier{1, 2, 840, 113635, 100, 6, 2, 6}
)

var (
	// WindowsCode is Authenticode: the code-signing extended key usage.
	WindowsCode = Purpose{Name: "Windows code signing", ExtKeyUsage: x509.ExtKeyUsageCodeSigning}
	// MacInstaller is a macOS installer package: Apple's package-signing
	// extended key usage (a Developer ID Installer certificate, or an
	// organisation's own installer-signing certificate) and an RSA key.
	MacInstaller = Purpose{
		Name: "macOS installer signing", ExtKeyUsageID: OIDAppleInstallerSigning, RSA: true,
		WrongKind: map[string]string{OIDDeveloperIDApplication.String(): "a Developer ID Application certificate (it signs apps, not packages: use a Developer ID Installer certificate)"},
	}
	// MacCode is a Mach-O code signature: the code-signing extended key
	// usage, as a Developer ID Application certificate has it.
	MacCode = Purpose{
		Name: "macOS code signing", ExtKeyUsage: x509.ExtKeyUsageCodeSigning,
		WrongKind: map[string]string{OIDDeveloperIDInstaller.String(): "a Developer ID Installer certificate (it signs packages, not code: use a Developer ID Application certificate)"},
	}
)

// Check fails unless the identity can sign for the purpose at time now:
// the key is the leaf's, the chain is in order, every certificate is
// valid now, and the leaf allows digital signatures for the purpose.
func (id *Identity) Check(p Purpose, now time.Time) error {
	if id == nil || len(id.Chain) == 0 || id.Key == nil {
		return fmt.Errorf("%w: no certificate or no key", ErrIdentity)
	}
	leaf := id.Leaf()
	if err := matchKey(leaf, id.Key.Public()); err != nil {
		return err
	}
	if err := checkChainOrder(id.Chain); err != nil {
		return err
	}
	for _, c := range id.Chain {
		if err := checkValidity(c, now); err != nil {
			return err
		}
	}
	return checkUsage(leaf, p)
}

func matchKey(leaf *x509.Certificate, pub crypto.PublicKey) error {
	k, ok := pub.(interface{ Equal(crypto.PublicKey) bool })
	if !ok || !k.Equal(leaf.PublicKey) {
		return fmt.Errorf("%w: the private key does not belong to the certificate %q", ErrIdentity, leaf.Subject.CommonName)
	}
	return nil
}

func checkChainOrder(chain []*x509.Certificate) error {
	for i := 0; i+1 < len(chain); i++ {
		child, parent := chain[i], chain[i+1]
		if !bytes.Equal(child.RawIssuer, parent.RawSubject) || child.CheckSignatureFrom(parent) != nil {
			return fmt.Errorf("%w: certificate %d (%q) was not issued by certificate %d (%q): list the chain leaf first, then each issuer", ErrIdentity, i+1, child.Subject.CommonName, i+2, parent.Subject.CommonName)
		}
	}
	return nil
}

func checkValidity(c *x509.Certificate, now time.Time) error {
	const stamp = "2006-01-02 15:04:05 UTC"
	switch {
	case now.Before(c.NotBefore):
		return fmt.Errorf("%w: certificate %q is not valid before %s", ErrIdentity, c.Subject.CommonName, c.NotBefore.UTC().Format(stamp))
	case now.After(c.NotAfter):
		return fmt.Errorf("%w: certificate %q expired on %s", ErrIdentity, c.Subject.CommonName, c.NotAfter.UTC().Format(stamp))
	}
	return nil
}

func checkUsage(leaf *x509.Certificate, p Purpose) error {
	name := leaf.Subject.CommonName
	for _, ext := range leaf.Extensions {
		if kind, bad := p.WrongKind[ext.Id.String()]; bad {
			return fmt.Errorf("%w: certificate %q is %s", ErrIdentity, name, kind)
		}
	}
	if leaf.KeyUsage != 0 && leaf.KeyUsage&x509.KeyUsageDigitalSignature == 0 {
		return fmt.Errorf("%w: certificate %q does not allow digital signatures (key usage)", ErrIdentity, name)
	}
	if !hasExtKeyUsage(leaf, p) {
		return fmt.Errorf("%w: certificate %q is not a %s certificate (extended key usage %s missing)", ErrIdentity, name, p.Name, p.ekuName())
	}
	if _, ok := leaf.PublicKey.(*rsa.PublicKey); p.RSA && !ok {
		return fmt.Errorf("%w: certificate %q: %s needs an RSA key", ErrIdentity, name, p.Name)
	}
	return nil
}

func hasExtKeyUsage(leaf *x509.Certificate, p Purpose) bool {
	if p.ExtKeyUsageID != nil {
		return slices.ContainsFunc(leaf.UnknownExtKeyUsage, p.ExtKeyUsageID.Equal)
	}
	return slices.Contains(leaf.ExtKeyUsage, p.ExtKeyUsage)
}

func (p Purpose) ekuName() string {
	if p.ExtKeyUsageID != nil {
		return p.ExtKeyUsageID.String()
	}
	if p.ExtKeyUsage == x509.ExtKeyUsageCodeSigning {
		return "codeSigning (1.3.6.1.5.5.7.3.3)"
	}
	return fmt.Sprint(p.ExtKeyUsage)
}
