package xar

import (
	"crypto"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"fmt"
	"io"
	"strings"
)

// Signature is one signature listed in the TOC.
type Signature struct {
	Style string // StyleRSA or StyleCMS
	// Offset and Size locate its slot in the heap.
	Offset, Size int64
	// Certificates are DER, the signing certificate first.
	Certificates [][]byte
}

// maxSignatureSize bounds one signature slot.
const maxSignatureSize = 1 << 20

type tocSignature struct {
	Style        string   `xml:"style,attr"`
	Offset       int64    `xml:"offset"`
	Size         int64    `xml:"size"`
	Certificates []string `xml:"KeyInfo>X509Data>X509Certificate"`
}

func (x *Reader) collectSignatures(doc tocDoc) error {
	for _, s := range append(doc.TOC.Signatures, doc.TOC.XSignatures...) {
		if s.Offset < 0 || s.Size <= 0 || s.Size > maxSignatureSize || x.heap+s.Offset+s.Size > x.size {
			return fmt.Errorf("%w: %s signature slot outside the file", ErrFormat, s.Style)
		}
		sig := Signature{Style: s.Style, Offset: s.Offset, Size: s.Size}
		for i, text := range s.Certificates {
			der, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(text), ""))
			if err != nil || len(der) == 0 {
				return fmt.Errorf("%w: %s signature: certificate %d is not base64", ErrFormat, s.Style, i+1)
			}
			sig.Certificates = append(sig.Certificates, der)
		}
		x.sigs = append(x.sigs, sig)
	}
	return nil
}

// Signatures lists the archive's signatures in TOC order (RSA ones,
// then CMS ones); none for an unsigned archive.
func (x *Reader) Signatures() []Signature { return append([]Signature(nil), x.sigs...) }

// SignedData is what every signature signs: the TOC digest, as stored
// in the heap (already checked against the TOC).
func (x *Reader) SignedData() []byte { return append([]byte(nil), x.digest...) }

// SignatureBytes reads a signature's whole slot; a CMS slot keeps its
// zero padding.
func (x *Reader) SignatureBytes(s Signature) ([]byte, error) {
	buf := make([]byte, s.Size)
	if _, err := x.r.ReadAt(buf, x.heap+s.Offset); err != nil && err != io.EOF {
		return nil, fmt.Errorf("%w: %s signature unreadable", ErrFormat, s.Style)
	}
	return buf, nil
}

// VerifyRSA checks the RSA signature against its first certificate:
// PKCS#1 v1.5 with a SHA-1 DigestInfo over the TOC digest. It proves the
// archive is intact and signed by that certificate's key; whether the
// certificate is trusted is the caller's question.
func (x *Reader) VerifyRSA() (*x509.Certificate, error) {
	for _, s := range x.sigs {
		if s.Style != StyleRSA {
			continue
		}
		if len(s.Certificates) == 0 {
			return nil, fmt.Errorf("%w: RSA signature without a certificate", ErrFormat)
		}
		leaf, err := x509.ParseCertificate(s.Certificates[0])
		if err != nil {
			return nil, fmt.Errorf("%w: RSA signature certificate: %v", ErrFormat, err)
		}
		pub, ok := leaf.PublicKey.(*rsa.PublicKey)
		if !ok {
			return nil, fmt.Errorf("%w: RSA signature with a non-RSA certificate", ErrFormat)
		}
		sig, err := x.SignatureBytes(s)
		if err != nil {
			return nil, err
		}
		if err := rsa.VerifyPKCS1v15(pub, crypto.SHA1, x.digest, sig); err != nil {
			return nil, fmt.Errorf("%w: RSA signature does not verify", ErrChecksum)
		}
		return leaf, nil
	}
	return nil, fmt.Errorf("%w: archive not signed", ErrNotFound)
}
