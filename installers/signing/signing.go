// Package signing holds what every signed installer kind shares: the
// signing identity (a certificate chain and the key of its leaf), how a
// release engineer hands it over (PEM files or PKCS#12, named by
// environment variables), the checks that run before any artifact is
// written, and Authenticode for Windows executables and MSI packages.
//
// The key is a crypto.Signer, so a key held in a cloud KMS or a PKCS#11
// token can stand in for a key file without touching any format.
package signing

import (
	"crypto"
	"crypto/x509"
	"errors"
)

// Identity is what signs: the certificate chain, leaf first and each
// certificate issued by the next, and the leaf's private key.
type Identity struct {
	Chain []*x509.Certificate
	Key   crypto.Signer
	// TimestampURL, when set, names an RFC 3161 time-stamping authority
	// that countersigns every signature. A timestamped signature differs
	// on every run.
	TimestampURL string
}

// Leaf is the signing certificate.
func (id *Identity) Leaf() *x509.Certificate { return id.Chain[0] }

// Description is the program name Windows shows for a signed file (the
// UAC prompt, the file's properties).
const Description = "Control D (ctrld)"

// ErrIdentity marks every problem with a signing identity: a file that
// does not load, a key that does not match, a certificate that is not
// valid for the purpose. Messages name files and certificates, never key
// material.
var ErrIdentity = errors.New("signing identity")
