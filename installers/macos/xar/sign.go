package xar

import (
	"bytes"
	"context"
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/sassoftware/relic/v8/lib/pkcs7"
	"github.com/sassoftware/relic/v8/lib/pkcs9"
)

// Signer signs an archive as productsign does: the TOC lists an RSA
// signature and a CMS signature, each with the certificate chain; the
// heap holds, after the TOC digest, the RSA signature and the CMS blob
// zero-padded to its reserved size. Both sign the TOC digest, which
// covers every member's checksum.
type Signer struct {
	// Chain is the signing certificate first, then each issuer.
	Chain []*x509.Certificate
	// Key is the leaf's RSA key; any crypto.Signer (a KMS or PKCS#11
	// key) works.
	Key crypto.Signer
	// SigningTime is the CMS signingTime attribute; zero means the
	// archive's creation time, which keeps signed output reproducible.
	SigningTime time.Time
	// Timestamper, when set, adds an RFC 3161 token to the CMS signature.
	Timestamper pkcs9.Timestamper
}

// XML namespace of the certificate list (XML-DSig's KeyInfo).
const keyInfoNS = "http://www.w3.org/2000/09/xmldsig#"

// Signature styles in the TOC.
const (
	StyleRSA = "RSA"
	StyleCMS = "CMS"
)

// cmsBaseReserve is the CMS slot's room beyond the certificates: the
// signer info, attributes and an RFC 3161 token with its own chain.
const cmsBaseReserve = 8192

// certLineLength is the base64 line length Apple's tools write.
const certLineLength = 72

var errSignerKey = errors.New("xar: the signer needs an RSA certificate and its key")

// layout is where the signatures go in the heap.
type layout struct {
	rsaSize, cmsSize int64
}

func (l layout) total() int64 { return l.rsaSize + l.cmsSize }

func (s *Signer) layout() (layout, error) {
	if len(s.Chain) == 0 || s.Key == nil {
		return layout{}, errSignerKey
	}
	pub, ok := s.Chain[0].PublicKey.(*rsa.PublicKey)
	if !ok {
		return layout{}, errSignerKey
	}
	l := layout{rsaSize: int64(pub.Size()), cmsSize: cmsBaseReserve}
	for _, c := range s.Chain {
		l.cmsSize += int64(len(c.Raw))
	}
	return l, nil
}

// sign returns the bytes of both slots for a TOC digest.
func (s *Signer) sign(digest []byte, l layout, created time.Time) ([]byte, error) {
	classic, err := s.Key.Sign(rand.Reader, digest, crypto.SHA1)
	if err != nil {
		return nil, fmt.Errorf("xar: RSA signature: %w", err)
	}
	if int64(len(classic)) != l.rsaSize {
		return nil, fmt.Errorf("xar: RSA signature is %d bytes, the certificate's key needs %d", len(classic), l.rsaSize)
	}
	cms, err := s.cms(digest, created)
	if err != nil {
		return nil, err
	}
	if int64(len(cms)) > l.cmsSize {
		return nil, fmt.Errorf("xar: CMS signature is %d bytes, more than the %d reserved", len(cms), l.cmsSize)
	}
	slots := make([]byte, l.total())
	copy(slots, classic)
	copy(slots[l.rsaSize:], cms)
	return slots, nil
}

// cms is a detached SignedData over the digest bytes (content type
// id-data), SHA-256, with contentType, messageDigest and signingTime.
func (s *Signer) cms(digest []byte, created time.Time) ([]byte, error) {
	when := s.SigningTime
	if when.IsZero() {
		when = created
	}
	b := pkcs7.NewBuilder(s.Key, s.Chain, crypto.SHA256)
	if err := b.SetContentData(digest); err != nil {
		return nil, fmt.Errorf("xar: CMS: %w", err)
	}
	if err := b.AddAuthenticatedAttribute(pkcs7.OidAttributeSigningTime, when.UTC()); err != nil {
		return nil, fmt.Errorf("xar: CMS: %w", err)
	}
	sd, err := b.Sign()
	if err != nil {
		return nil, fmt.Errorf("xar: CMS: %w", err)
	}
	if _, err := pkcs9.TimestampAndMarshal(context.Background(), sd, s.Timestamper, false); err != nil {
		return nil, fmt.Errorf("xar: CMS: %w", err)
	}
	if _, err := sd.Detach(); err != nil {
		return nil, fmt.Errorf("xar: CMS: %w", err)
	}
	blob, err := sd.Marshal()
	if err != nil {
		return nil, fmt.Errorf("xar: CMS: %w", err)
	}
	return blob, nil
}

// writeSignatureElements renders <signature> and <x-signature> after the
// checksum, in slot order.
func (s *Signer) writeSignatureElements(b *bytes.Buffer, l layout) {
	certs := make([]string, len(s.Chain))
	for i, c := range s.Chain {
		certs[i] = wrapBase64(c.Raw)
	}
	offset := int64(digestSize)
	for _, e := range []struct {
		element, style string
		size           int64
	}{{"signature", StyleRSA, l.rsaSize}, {"x-signature", StyleCMS, l.cmsSize}} {
		fmt.Fprintf(b, "  <%s style=\"%s\">\n   <offset>%d</offset>\n   <size>%d</size>\n", e.element, e.style, offset, e.size)
		fmt.Fprintf(b, "   <KeyInfo xmlns=\"%s\">\n    <X509Data>\n", keyInfoNS)
		for _, c := range certs {
			fmt.Fprintf(b, "     <X509Certificate>%s</X509Certificate>\n", c)
		}
		fmt.Fprintf(b, "    </X509Data>\n   </KeyInfo>\n  </%s>\n", e.element)
		offset += e.size
	}
}

func wrapBase64(der []byte) string {
	text := base64.StdEncoding.EncodeToString(der)
	var b strings.Builder
	for len(text) > certLineLength {
		b.WriteString(text[:certLineLength])
		b.WriteByte('\n')
		text = text[certLineLength:]
	}
	b.WriteString(text)
	return b.String()
}
