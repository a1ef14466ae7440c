package codesign

import (
	"bytes"
	"crypto"
	"crypto/x509"
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/ctrld-install/ctrld-install/installers/macos/macho"
	"github.com/sassoftware/relic/v8/lib/pkcs9"
)

// Signer writes Developer ID code signatures.
type Signer struct {
	// Chain is the signing certificate (a Developer ID Application one)
	// first, then each issuer.
	Chain []*x509.Certificate
	// Key is the leaf's key; any crypto.Signer (a KMS or PKCS#11 key)
	// works.
	Key crypto.Signer
	// Identifier names the code (CFBundleIdentifier style); it is the
	// designated requirement's identifier.
	Identifier string
	// TeamID is the team the code is signed for; empty takes the leaf
	// certificate's subject OU, where Apple puts it.
	TeamID string
	// SigningTime is the CMS signingTime; zero means now.
	SigningTime time.Time
	// Timestamper, when set, adds an RFC 3161 token to every CMS
	// signature, the secure timestamp notarization asks for.
	Timestamper pkcs9.Timestamper
	// KeepSigned leaves slices that already carry a certificate-signed
	// signature (their publisher's) as they are; such a signature that
	// does not verify is an error. Without it every slice is re-signed.
	KeepSigned bool
}

// Layout constants.
const (
	signatureAlign    = 16
	superBlobIndexLen = 8
	// cmsBaseReserve is the CMS slot's room beyond the signer's
	// certificates: the signer info, its attributes and a timestamp
	// token with the authority's own certificates.
	cmsBaseReserve = 12 << 10
	maxImage       = 1<<32 - 1
)

var errSigner = errors.New("codesign: the signer needs a certificate chain, its key and an identifier")

// teamID is the team the signature names.
func (s *Signer) teamID() (string, error) {
	if s.TeamID != "" {
		return s.TeamID, nil
	}
	if ou := s.Chain[0].Subject.OrganizationalUnit; len(ou) > 0 && ou[0] != "" {
		return ou[0], nil
	}
	return "", fmt.Errorf("codesign: certificate %q has no team ID (subject OU): set one", s.Chain[0].Subject.CommonName)
}

// SignFile signs every slice of a thin or universal image and returns
// the signed file; a universal file is rebuilt from its signed slices.
func (s *Signer) SignFile(data []byte) ([]byte, error) {
	slices, err := macho.Split(data)
	if err != nil {
		return nil, err
	}
	changed := false
	for i := range slices {
		signed, keep, err := s.signSlice(slices[i].Data)
		if err != nil {
			return nil, fmt.Errorf("%s slice: %w", cpuName(slices[i].CPU), err)
		}
		if !keep {
			slices[i].Data, changed = signed, true
		}
	}
	if !changed {
		return data, nil
	}
	if !macho.IsFat(data) {
		return slices[0].Data, nil
	}
	var out bytes.Buffer
	if err := macho.MergeSlices(&out, slices); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// signSlice signs one thin image, or says to keep it as it is.
func (s *Signer) signSlice(image []byte) (signed []byte, keep bool, err error) {
	if s.KeepSigned {
		sig, err := Read(image, nil)
		switch {
		case err == nil && sig.Leaf != nil:
			return nil, true, nil
		case err != nil && !errors.Is(err, ErrNotSigned) && hasCertificate(image):
			return nil, false, fmt.Errorf("its publisher's signature does not verify: %w", err)
		}
	}
	signed, err = s.Sign(image)
	return signed, false, err
}

// Sign signs a thin Mach-O image, replacing any signature it carries
// (the linker's ad-hoc one, say), and returns the signed image.
func (s *Signer) Sign(image []byte) ([]byte, error) {
	if len(s.Chain) == 0 || s.Key == nil || s.Identifier == "" {
		return nil, errSigner
	}
	team, err := s.teamID()
	if err != nil {
		return nil, err
	}
	t, err := macho.ParseThin(image)
	if err != nil {
		return nil, err
	}
	p, err := plan(t)
	if err != nil {
		return nil, err
	}
	reqs := requirementSet(s.Identifier, team)
	cd := codeDirectory{Flags: FlagRuntime, Identifier: s.Identifier, TeamID: team, CodeLimit: p.sigOffset,
		ExecSegBase: p.text.FileOff, ExecSegLimit: p.text.FileSize}
	if t.IsExecutable() {
		cd.ExecSegFlags = execSegMain
	}
	cd.Special = make([][]byte, specialSlots)
	cd.Special[slotInfoPlist-1] = make([]byte, hashSize)
	cd.Special[slotRequirements-1] = cdHash(reqs)
	cd.Code = make([][]byte, (p.sigOffset+PageSize-1)/PageSize)
	for i := range cd.Code {
		cd.Code[i] = make([]byte, hashSize)
	}
	reserve := s.cmsReserve()
	sigSize := align(uint64(blobHeaderLen+4+3*superBlobIndexLen+len(cd.marshal())+len(reqs)+blobHeaderLen)+reserve, signatureAlign)
	if p.sigOffset+sigSize > maxImage {
		return nil, fmt.Errorf("codesign: image too large")
	}
	out := p.layOut(t, sigSize)
	cd.Code = hashPages(out[:p.sigOffset])
	cdBlob := cd.marshal()
	when := s.SigningTime
	if when.IsZero() {
		when = time.Now()
	}
	cms, err := s.signCMS([][]byte{cdBlob}, when)
	if err != nil {
		return nil, fmt.Errorf("codesign: CMS: %w", err)
	}
	if uint64(len(cms)) > reserve {
		return nil, fmt.Errorf("codesign: CMS signature is %d bytes, more than the %d reserved", len(cms), reserve)
	}
	sb := superBlob(magicEmbeddedSignature, map[uint32][]byte{
		slotCodeDirectory: cdBlob, slotRequirements: reqs, slotSignature: blob(magicBlobWrapper, cms),
	})
	copy(out[p.sigOffset:], sb)
	return out, nil
}

func (s *Signer) cmsReserve() uint64 {
	n := uint64(cmsBaseReserve)
	for _, c := range s.Chain {
		n += uint64(len(c.Raw))
	}
	return n
}

// layoutPlan is where the signature goes and what the headers must say.
type layoutPlan struct {
	base            []byte // the image without any old signature
	sigOffset       uint64
	text, linkedit  macho.Segment
	addSignatureCmd bool
}

func plan(t *macho.Thin) (layoutPlan, error) {
	text, ok := t.Segment("__TEXT")
	if !ok {
		return layoutPlan{}, fmt.Errorf("codesign: no __TEXT segment")
	}
	linkedit, ok := t.Segment("__LINKEDIT")
	if !ok {
		return layoutPlan{}, fmt.Errorf("codesign: no __LINKEDIT segment")
	}
	for _, seg := range t.Segments {
		if seg.FileOff > linkedit.FileOff {
			return layoutPlan{}, fmt.Errorf("codesign: __LINKEDIT is not the last segment")
		}
	}
	p := layoutPlan{base: t.Data, text: text, linkedit: linkedit}
	end := linkedit.FileOff + linkedit.FileSize
	switch {
	case t.Signature != nil:
		if uint64(t.Signature.DataOff) < linkedit.FileOff || t.Signature.DataOff < macho.HeaderLen+t.SizeOfCmds {
			return layoutPlan{}, fmt.Errorf("codesign: the old signature lies outside __LINKEDIT")
		}
		p.base = t.Data[:t.Signature.DataOff]
	case end != uint64(len(t.Data)):
		return layoutPlan{}, fmt.Errorf("codesign: %d bytes follow __LINKEDIT", uint64(len(t.Data))-end)
	default:
		if err := roomForCommand(t); err != nil {
			return layoutPlan{}, err
		}
		p.addSignatureCmd = true
	}
	p.sigOffset = align(uint64(len(p.base)), signatureAlign)
	return p, nil
}

// roomForCommand checks a new LC_CODE_SIGNATURE fits, in zeros, between
// the load commands and the first section.
func roomForCommand(t *macho.Thin) error {
	start := uint64(macho.HeaderLen) + uint64(t.SizeOfCmds)
	end := start + macho.LinkeditCmdLen
	if end > t.FirstSection || !allZero(t.Data[start:end]) {
		return fmt.Errorf("codesign: no room for LC_CODE_SIGNATURE after the load commands")
	}
	return nil
}

// layOut copies the image, without its old signature, into a file with
// room for sigSize bytes of signature and fixes the headers to match.
func (p layoutPlan) layOut(t *macho.Thin, sigSize uint64) []byte {
	out := make([]byte, p.sigOffset+sigSize)
	copy(out, p.base)
	le := binary.LittleEndian
	cmdAt := 0
	if p.addSignatureCmd {
		cmdAt = macho.HeaderLen + int(t.SizeOfCmds)
		le.PutUint32(out[cmdAt:], macho.LCCodeSignature)
		le.PutUint32(out[cmdAt+4:], macho.LinkeditCmdLen)
		le.PutUint32(out[16:], t.NCmds+1)
		le.PutUint32(out[20:], t.SizeOfCmds+macho.LinkeditCmdLen)
	} else {
		cmdAt = t.Signature.CmdOffset
	}
	le.PutUint32(out[cmdAt+8:], uint32(p.sigOffset))
	le.PutUint32(out[cmdAt+12:], uint32(sigSize))
	fileSize := p.sigOffset + sigSize - p.linkedit.FileOff
	vmSize := max(p.linkedit.VMSize, align(fileSize, t.PageSize()))
	le.PutUint64(out[p.linkedit.CmdOffset+32:], vmSize)
	le.PutUint64(out[p.linkedit.CmdOffset+48:], fileSize)
	return out
}

func align(n, to uint64) uint64 { return (n + to - 1) / to * to }

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

func cpuName(cpu uint32) string {
	switch cpu {
	case macho.CPUTypeX86_64:
		return "x86_64"
	case macho.CPUTypeARM64:
		return "arm64"
	}
	return fmt.Sprintf("CPU %#x", cpu)
}
