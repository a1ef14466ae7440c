// Package signingtest makes throwaway certificate authorities and signing
// certificates for tests: a root, an intermediate and a leaf shaped like
// a real Windows code-signing or Apple Developer ID Installer
// certificate. Nothing here is used by a release build.
package signingtest

import (
	"bytes"
	"cmp"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/pem"
	"math/big"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/installers/signing"
)

// Now is the moment the certificates are valid around.
var Now = time.Now()

var (
	oidExtKeyUsage = asn1.ObjectIdentifier{2, 5, 29, 37}
	asn1Null       = []byte{0x05, 0x00}
)

// Leaf options.
type Options struct {
	Name string
	// ExtKeyUsage is Go's named usages; UnknownEKU is OIDs, written as a
	// critical extension as Apple does.
	ExtKeyUsage []x509.ExtKeyUsage
	UnknownEKU  []asn1.ObjectIdentifier
	// Markers are extra extensions with a NULL value.
	Markers             []asn1.ObjectIdentifier
	NotBefore, NotAfter time.Time
	// KeyUsage defaults to digital signature.
	KeyUsage x509.KeyUsage
}

// Windows is a code-signing leaf.
func Windows() Options {
	return Options{Name: "Throwaway Code Signing", ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageCodeSigning}}
}

// Installer is a Developer ID Installer-shaped leaf: the package-signing
// EKU and the Developer ID Installer marker. The marker is not critical
// here (it is on Apple's certificates) so OpenSSL can verify the chain.
func Installer() Options {
	return Options{
		Name:       "Developer ID Installer: Throwaway Test (TEAM000000)",
		UnknownEKU: []asn1.ObjectIdentifier{signing.OIDAppleInstallerSigning},
		Markers:    []asn1.ObjectIdentifier{signing.OIDDeveloperIDInstaller},
	}
}

// Application is a Developer ID Application-shaped leaf: the
// code-signing EKU and the Developer ID Application marker.
func Application() Options {
	return Options{
		Name:        "Developer ID Application: Throwaway Test (TEAM000000)",
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageCodeSigning},
		Markers:     []asn1.ObjectIdentifier{signing.OIDDeveloperIDApplication},
	}
}

// PKI is a root and an intermediate CA.
type PKI struct {
	Root, Intermediate       *x509.Certificate
	RootKey, IntermediateKey *rsa.PrivateKey
}

// Leaf is a signing certificate and its key, issued by the PKI.
type Leaf struct {
	Cert *x509.Certificate
	Key  *rsa.PrivateKey
	PKI  *PKI
}

var (
	pkiOnce sync.Once
	shared  *PKI
)

// NewPKI returns the process's test CA (made once: RSA keys are slow).
func NewPKI(t testing.TB) *PKI {
	t.Helper()
	pkiOnce.Do(func() {
		p := &PKI{RootKey: key(t), IntermediateKey: key(t)}
		p.Root = create(t, &x509.Certificate{
			Subject: pkix.Name{CommonName: "Throwaway Test Root CA", Organization: []string{"ctrld-install tests"}},
			IsCA:    true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
		}, nil, p.RootKey, p.RootKey)
		p.Intermediate = create(t, &x509.Certificate{
			Subject: pkix.Name{CommonName: "Throwaway Test Intermediate CA", Organization: []string{"ctrld-install tests"}},
			IsCA:    true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageCRLSign | x509.KeyUsageDigitalSignature,
			ExtraExtensions: []pkix.Extension{{Id: signing.OIDDeveloperIDCA, Value: asn1Null}},
		}, p.Root, p.IntermediateKey, p.RootKey)
		shared = p
	})
	if shared == nil {
		t.Fatal("test PKI could not be made")
	}
	return shared
}

func key(t testing.TB) *rsa.PrivateKey {
	t.Helper()
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// serial numbers the certificates of every test, some running at once.
var serial atomic.Int64

func create(t testing.TB, tmpl, parent *x509.Certificate, pub *rsa.PrivateKey, signer *rsa.PrivateKey) *x509.Certificate {
	t.Helper()
	tmpl.SerialNumber = big.NewInt(1000 + serial.Add(1))
	tmpl.BasicConstraintsValid = true
	if tmpl.NotBefore.IsZero() {
		tmpl.NotBefore = Now.Add(-24 * time.Hour)
	}
	if tmpl.NotAfter.IsZero() {
		tmpl.NotAfter = Now.Add(365 * 24 * time.Hour)
	}
	if parent == nil {
		parent = tmpl
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, &pub.PublicKey, signer)
	if err != nil {
		t.Fatal(err)
	}
	c, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Leaf issues a leaf from the intermediate.
func (p *PKI) Leaf(t testing.TB, o Options) *Leaf {
	t.Helper()
	k := key(t)
	tmpl := &x509.Certificate{
		Subject:     pkix.Name{CommonName: o.Name, OrganizationalUnit: []string{"TEAM000000"}, Organization: []string{"ctrld-install tests"}},
		KeyUsage:    cmp.Or(o.KeyUsage, x509.KeyUsageDigitalSignature),
		ExtKeyUsage: o.ExtKeyUsage,
		NotBefore:   o.NotBefore, NotAfter: o.NotAfter,
	}
	if len(o.UnknownEKU) > 0 {
		value, err := asn1.Marshal(o.UnknownEKU)
		if err != nil {
			t.Fatal(err)
		}
		tmpl.ExtraExtensions = append(tmpl.ExtraExtensions, pkix.Extension{Id: oidExtKeyUsage, Critical: true, Value: value})
	}
	for _, m := range o.Markers {
		tmpl.ExtraExtensions = append(tmpl.ExtraExtensions, pkix.Extension{Id: m, Value: asn1Null})
	}
	return &Leaf{Cert: create(t, tmpl, p.Intermediate, k, p.IntermediateKey), Key: k, PKI: p}
}

// Chain is leaf, intermediate, root.
func (l *Leaf) Chain() []*x509.Certificate {
	return []*x509.Certificate{l.Cert, l.PKI.Intermediate, l.PKI.Root}
}

// Identity signs with the leaf's key.
func (l *Leaf) Identity() *signing.Identity {
	return &signing.Identity{Chain: l.Chain(), Key: l.Key}
}

// Files are the PEM files a release engineer would have.
type Files struct {
	Cert, Key, CA string
}

// Write puts the chain (leaf first), the key (PKCS#8) and the root
// (the trust anchor a verifier gets) into dir.
func (l *Leaf) Write(t testing.TB, dir string) Files {
	t.Helper()
	f := Files{Cert: filepath.Join(dir, "chain.pem"), Key: filepath.Join(dir, "key.pem"), CA: filepath.Join(dir, "ca.pem")}
	var chain []byte
	for _, c := range l.Chain() {
		chain = append(chain, PEM(c)...)
	}
	writeFile(t, f.Cert, chain)
	writeFile(t, f.Key, l.KeyPEM(t))
	writeFile(t, f.CA, PEM(l.PKI.Root))
	return f
}

// KeyDER is the key as PKCS#8 DER, what a leak scan looks for.
func (l *Leaf) KeyDER(t testing.TB) []byte {
	t.Helper()
	der, err := x509.MarshalPKCS8PrivateKey(l.Key)
	if err != nil {
		t.Fatal(err)
	}
	return der
}

// KeyPEM is the key as a PEM block.
func (l *Leaf) KeyPEM(t testing.TB) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: l.KeyDER(t)})
}

// PEM encodes one certificate.
func PEM(c *x509.Certificate) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: c.Raw})
}

func writeFile(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// Secrets are byte strings that give the key away: its DER encodings, its
// private numbers and every line of its PEM text. None may appear in an
// artifact, a log or an error.
func (l *Leaf) Secrets(t testing.TB) [][]byte {
	t.Helper()
	out := [][]byte{l.KeyDER(t), x509.MarshalPKCS1PrivateKey(l.Key), l.Key.D.Bytes()}
	for _, p := range l.Key.Primes {
		out = append(out, p.Bytes())
	}
	for _, line := range bytes.Split(l.KeyPEM(t), []byte("\n")) {
		if len(line) >= 32 { // body lines; the BEGIN/END lines are no secret
			out = append(out, line)
		}
	}
	return out
}

// Leaks reports the first secret found in data.
func (l *Leaf) Leaks(t testing.TB, data []byte) bool {
	t.Helper()
	for _, s := range l.Secrets(t) {
		if bytes.Contains(data, s) {
			return true
		}
	}
	return false
}
