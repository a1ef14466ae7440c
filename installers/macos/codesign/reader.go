package codesign

import (
	"bytes"
	"crypto/subtle"
	"crypto/x509"
	"fmt"
	"io"
	"time"

	"github.com/ctrld-install/ctrld-install/installers/macos/macho"
	"github.com/sassoftware/relic/v8/lib/pkcs7"
)

// Signature is one slice's code signature, verified: every page hash of
// every CodeDirectory matches the image, every special slot matches its
// blob (or is empty with no blob), and the CMS signature, if any, signs
// the primary CodeDirectory, its cdhash attributes (where it has them)
// name every CodeDirectory, and its timestamp token stamps it.
type Signature struct {
	CPU                uint32
	Identifier, TeamID string
	Flags              uint32
	// CDHash is the digest of the CodeDirectory with its own hash type
	// (SHA-256 for what the Signer writes); Apple's tools show its first
	// 20 bytes.
	CDHash []byte
	// Pages is the number of page hashes; CodeLimit the bytes they cover.
	Pages     int
	CodeLimit uint64
	// Requirement is the designated requirement, in text form; empty for
	// a signature without one (ad hoc).
	Requirement string
	// Leaf is the signing certificate and Certificates every certificate
	// the CMS signature carries; both nil for an ad-hoc signature.
	Leaf         *x509.Certificate
	Certificates []*x509.Certificate
	SigningTime  time.Time
	// Timestamp is the RFC 3161 token's time, zero when there is none.
	Timestamp time.Time
	// CodeDirectory, Requirements and CMS are the raw blobs' contents:
	// the CodeDirectory and requirement set whole, the CMS as DER.
	CodeDirectory, Requirements, CMS []byte
}

// Adhoc reports whether the signature is ad hoc (no certificate).
func (s *Signature) Adhoc() bool { return s.Flags&FlagAdhoc != 0 || s.Leaf == nil }

// Runtime reports whether the hardened runtime is on.
func (s *Signature) Runtime() bool { return s.Flags&FlagRuntime != 0 }

// Reader reads the signatures of a thin or universal file, one slice at
// a time.
type Reader struct {
	slices []macho.Slice
	roots  *x509.CertPool
}

// NewReader splits a file into its slices. With roots, every signature's
// certificate chain (and its timestamp's) must lead to one of them.
func NewReader(data []byte, roots *x509.CertPool) (*Reader, error) {
	slices, err := macho.Split(data)
	if err != nil {
		return nil, err
	}
	return &Reader{slices: slices, roots: roots}, nil
}

// Next reads and verifies the next slice's signature; io.EOF after the
// last. A slice without a signature is ErrNotSigned.
func (r *Reader) Next() (*Signature, error) {
	if len(r.slices) == 0 {
		return nil, io.EOF
	}
	s := r.slices[0]
	r.slices = r.slices[1:]
	sig, err := Read(s.Data, r.roots)
	if err != nil {
		return nil, fmt.Errorf("%s slice: %w", cpuName(s.CPU), err)
	}
	return sig, nil
}

// Read reads and verifies the signature of a thin image.
func Read(image []byte, roots *x509.CertPool) (*Signature, error) {
	t, err := macho.ParseThin(image)
	if err != nil {
		return nil, err
	}
	if t.Signature == nil {
		return nil, ErrNotSigned
	}
	blobs, err := readSuperBlob(image[t.Signature.DataOff:t.Signature.DataOff+t.Signature.DataLen], magicEmbeddedSignature)
	if err != nil {
		return nil, err
	}
	cdBlob, ok := blobs[slotCodeDirectory]
	if !ok {
		return nil, invalid("no CodeDirectory")
	}
	cds, err := codeDirectories(blobs, image, uint64(t.Signature.DataOff))
	if err != nil {
		return nil, err
	}
	cd := cds[0]
	sig := &Signature{CPU: t.CPU, Identifier: cd.Identifier, TeamID: cd.TeamID, Flags: cd.Flags, CDHash: cd.digest(cdBlob),
		Pages: len(cd.Code), CodeLimit: cd.CodeLimit, CodeDirectory: cdBlob, Requirements: blobs[slotRequirements]}
	if sig.Requirements != nil {
		if sig.Requirement, err = decompileDesignated(sig.Requirements); err != nil {
			return nil, err
		}
	}
	if err := sig.readCMS(blobs[slotSignature], blobs, roots); err != nil {
		return nil, err
	}
	return sig, nil
}

// codeDirectories parses and checks the CodeDirectory and any alternate
// ones (a signature may carry one per hash type), primary first.
func codeDirectories(blobs map[uint32][]byte, image []byte, sigOffset uint64) ([]codeDirectory, error) {
	var out []codeDirectory
	for _, slot := range cdSlots(blobs) {
		cd, err := parseCodeDirectory(blobs[slot])
		if err != nil {
			return nil, err
		}
		if err := checkPages(cd, image, sigOffset); err != nil {
			return nil, err
		}
		if err := checkSpecialSlots(cd, blobs); err != nil {
			return nil, err
		}
		out = append(out, cd)
	}
	return out, nil
}

// cdSlots are the slots that hold a CodeDirectory, primary first.
func cdSlots(blobs map[uint32][]byte) []uint32 {
	slots := []uint32{slotCodeDirectory}
	for s := uint32(slotAlternateCodeDirectories); s < slotAlternateCodeDirectories+maxAlternateCodeDirectories; s++ {
		if _, ok := blobs[s]; ok {
			slots = append(slots, s)
		}
	}
	return slots
}

func checkPages(cd codeDirectory, image []byte, sigOffset uint64) error {
	if cd.CodeLimit != sigOffset {
		return invalid("the page hashes cover %d bytes, the signature starts at %d", cd.CodeLimit, sigOffset)
	}
	kind := cdHashes[cd.HashType]
	pages := hashPagesWith(image[:cd.CodeLimit], cd.pageSize(), kind.hash, kind.size)
	if len(pages) != len(cd.Code) {
		return invalid("%d page hashes for %d pages", len(cd.Code), len(pages))
	}
	for i := range pages {
		if subtle.ConstantTimeCompare(pages[i], cd.Code[i]) != 1 {
			return invalid("page %d does not match its hash", i)
		}
	}
	return nil
}

// checkSpecialSlots: a slot with a blob holds its hash; a slot without
// one is zero.
func checkSpecialSlots(cd codeDirectory, blobs map[uint32][]byte) error {
	for i, h := range cd.Special {
		slot := uint32(i + 1)
		want := make([]byte, len(h))
		if b, ok := blobs[slot]; ok {
			want = cd.digest(b)
		}
		if !bytes.Equal(h, want) {
			return invalid("special slot %d does not match its blob", slot)
		}
	}
	if _, ok := blobs[slotRequirements]; ok && len(cd.Special) < slotRequirements {
		return invalid("a requirement set the CodeDirectory does not hash")
	}
	return nil
}

func (sig *Signature) readCMS(wrapper []byte, blobs map[uint32][]byte, roots *x509.CertPool) error {
	if len(wrapper) <= blobHeaderLen {
		if roots != nil {
			return invalid("ad-hoc signature, a certificate was required")
		}
		return nil
	}
	if _, err := readBlob(wrapper, magicBlobWrapper); err != nil {
		return err
	}
	sig.CMS = wrapper[blobHeaderLen:]
	var all [][]byte
	for _, slot := range cdSlots(blobs) {
		all = append(all, blobs[slot])
	}
	ts, err := verifyCMS(sig.CMS, all)
	if err != nil {
		return err
	}
	sig.Leaf = ts.Certificate
	sig.Certificates = ts.Intermediates // every certificate the CMS carries
	if t, err := ts.SignerInfo.SigningTime(); err == nil {
		sig.SigningTime = t
	}
	if ts.CounterSignature != nil {
		sig.Timestamp = ts.CounterSignature.SigningTime
	}
	if roots == nil {
		return nil
	}
	if err := ts.VerifyChain(roots, nil, x509.ExtKeyUsageCodeSigning); err != nil {
		return invalid("certificate chain: %v", err)
	}
	return nil
}

// hasCertificate reports whether an image's signature carries a CMS
// blob with a certificate, whether or not it verifies. A CMS blob that
// does not parse counts: it is no ad-hoc signature to replace silently.
func hasCertificate(image []byte) bool {
	t, err := macho.ParseThin(image)
	if err != nil || t.Signature == nil {
		return false
	}
	blobs, err := readSuperBlob(image[t.Signature.DataOff:t.Signature.DataOff+t.Signature.DataLen], magicEmbeddedSignature)
	if err != nil || len(blobs[slotSignature]) <= blobHeaderLen {
		return false
	}
	psd, err := pkcs7.Unmarshal(blobs[slotSignature][blobHeaderLen:])
	if err != nil {
		return true
	}
	certs, err := psd.Content.Certificates.Parse()
	return err != nil || len(certs) > 0
}
