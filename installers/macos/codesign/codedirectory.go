package codesign

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
)

// CodeDirectory constants.
const (
	// cdVersion has the execSeg fields and no runtime-version field.
	cdVersion     = 0x20400
	cdHeaderLen   = 88 // the fixed fields, magic and length included
	hashTypeSHA   = 2  // SHA-256
	hashSize      = sha256.Size
	pageShift     = 12
	PageSize      = 1 << pageShift
	cdHashLen     = 20 // the cdhash Apple's attribute and tools show: a truncated digest
	execSegMain   = 0x1
	maxIdentifier = 1024
)

// CodeDirectory flags.
const (
	FlagAdhoc   = 0x2
	FlagRuntime = 0x10000 // the hardened runtime
)

// codeDirectory is what a CodeDirectory says.
type codeDirectory struct {
	Version, Flags            uint32
	Identifier, TeamID        string
	CodeLimit                 uint64
	HashType, PageShift       uint8
	ExecSegBase, ExecSegLimit uint64
	ExecSegFlags              uint64
	Special                   [][]byte // Special[i] is slot i+1
	Code                      [][]byte
}

// hashPages is the SHA-256 of each page of code.
func hashPages(code []byte) [][]byte {
	var out [][]byte
	for off := 0; off < len(code); off += PageSize {
		sum := sha256.Sum256(code[off:min(off+PageSize, len(code))])
		out = append(out, sum[:])
	}
	return out
}

func (cd codeDirectory) marshal() []byte {
	ident := append([]byte(cd.Identifier), 0)
	team := append([]byte(cd.TeamID), 0)
	identOff := uint32(cdHeaderLen)
	teamOff := identOff + uint32(len(ident))
	hashOff := teamOff + uint32(len(team)) + uint32(len(cd.Special)*hashSize)
	if cd.TeamID == "" {
		teamOff, team = 0, nil
		hashOff = identOff + uint32(len(ident)) + uint32(len(cd.Special)*hashSize)
	}
	be := binary.BigEndian
	h := make([]byte, 0, cdHeaderLen)
	h = be.AppendUint32(h, cdVersion)
	h = be.AppendUint32(h, cd.Flags)
	h = be.AppendUint32(h, hashOff)
	h = be.AppendUint32(h, identOff)
	h = be.AppendUint32(h, uint32(len(cd.Special)))
	h = be.AppendUint32(h, uint32(len(cd.Code)))
	h = be.AppendUint32(h, uint32(cd.CodeLimit))
	h = append(h, hashSize, hashTypeSHA, 0, pageShift)
	h = be.AppendUint32(h, 0) // spare2
	h = be.AppendUint32(h, 0) // scatterOffset
	h = be.AppendUint32(h, teamOff)
	h = be.AppendUint32(h, 0) // spare3
	h = be.AppendUint64(h, 0) // codeLimit64: codeLimit fits in 32 bits
	h = be.AppendUint64(h, cd.ExecSegBase)
	h = be.AppendUint64(h, cd.ExecSegLimit)
	h = be.AppendUint64(h, cd.ExecSegFlags)
	body := append(h, ident...)
	body = append(body, team...)
	for i := len(cd.Special) - 1; i >= 0; i-- {
		body = append(body, cd.Special[i]...)
	}
	for _, c := range cd.Code {
		body = append(body, c...)
	}
	return blob(magicCodeDirectory, body)
}

// parseCodeDirectory reads a CodeDirectory blob of version 0x20400 or
// later hashed with SHA-256.
func parseCodeDirectory(b []byte) (codeDirectory, error) {
	b, err := readBlob(b, magicCodeDirectory)
	if err != nil {
		return codeDirectory{}, err
	}
	if len(b) < cdHeaderLen {
		return codeDirectory{}, invalid("short CodeDirectory")
	}
	be := binary.BigEndian
	cd := codeDirectory{Version: be.Uint32(b[8:]), Flags: be.Uint32(b[12:]),
		CodeLimit: uint64(be.Uint32(b[32:])), HashType: b[37], PageShift: b[39]}
	hashOff, identOff := be.Uint32(b[16:]), be.Uint32(b[20:])
	nSpecial, nCode := be.Uint32(b[24:]), be.Uint32(b[28:])
	if cd.Version < cdVersion {
		return codeDirectory{}, invalid("CodeDirectory version %#x predates %#x", cd.Version, cdVersion)
	}
	if b[36] != hashSize || cd.HashType != hashTypeSHA {
		return codeDirectory{}, invalid("CodeDirectory hash type %d size %d, not SHA-256", cd.HashType, b[36])
	}
	if limit64 := be.Uint64(b[56:]); limit64 != 0 {
		cd.CodeLimit = limit64
	}
	cd.ExecSegBase, cd.ExecSegLimit, cd.ExecSegFlags = be.Uint64(b[64:]), be.Uint64(b[72:]), be.Uint64(b[80:])
	if cd.Identifier, err = cString(b, identOff); err != nil {
		return codeDirectory{}, err
	}
	if teamOff := be.Uint32(b[48:]); teamOff != 0 {
		if cd.TeamID, err = cString(b, teamOff); err != nil {
			return codeDirectory{}, err
		}
	}
	if uint64(hashOff) < uint64(nSpecial)*hashSize || uint64(hashOff)+uint64(nCode)*hashSize > uint64(len(b)) {
		return codeDirectory{}, invalid("CodeDirectory hash array runs outside it")
	}
	for i := uint32(1); i <= nSpecial; i++ {
		at := hashOff - i*hashSize
		cd.Special = append(cd.Special, b[at:at+hashSize])
	}
	for i := uint32(0); i < nCode; i++ {
		at := hashOff + i*hashSize
		cd.Code = append(cd.Code, b[at:at+hashSize])
	}
	return cd, nil
}

func cString(b []byte, off uint32) (string, error) {
	if uint64(off) >= uint64(len(b)) {
		return "", invalid("CodeDirectory string offset %d past its end", off)
	}
	end := bytes.IndexByte(b[off:], 0)
	if end < 0 || end > maxIdentifier {
		return "", invalid("CodeDirectory string at %d is not terminated", off)
	}
	return string(b[off : int(off)+end]), nil
}

// cdHash is the full SHA-256 of a CodeDirectory blob.
func cdHash(cd []byte) []byte {
	sum := sha256.Sum256(cd)
	return sum[:]
}
