package codesign

import (
	"bytes"
	"crypto"
	_ "crypto/sha1" // the hash of older CodeDirectories, read only
	"crypto/sha256"
	_ "crypto/sha512"
	"encoding/binary"
)

// CodeDirectory constants. The Signer writes version cdVersion with
// SHA-256 and 4096-byte pages; the Reader also takes the older versions
// and hashes a publisher's signature may carry.
const (
	// cdVersion has the execSeg fields and no runtime-version field.
	cdVersion   = 0x20400
	cdHeaderLen = 88 // the fixed fields, magic and length included
	hashTypeSHA = 2  // SHA-256
	hashSize    = sha256.Size
	pageShift   = 12
	PageSize    = 1 << pageShift
	cdHashLen   = 20 // the cdhash Apple's attribute and tools show: a truncated digest
	execSegMain = 0x1
	// Versions that added fields, and the fixed part's length at each.
	cdVersionBase       = 0x20001
	cdVersionScatter    = 0x20100
	cdVersionTeam       = 0x20200
	cdVersionCodeLimit  = 0x20300
	cdVersionExecSeg    = 0x20400
	cdBaseHeaderLen     = 44
	maxIdentifier       = 1024
	maxReadablePageBits = 24
)

// cdHashes are the hash types a CodeDirectory names: the hash, and the
// length it keeps of each digest.
var cdHashes = map[uint8]struct {
	hash crypto.Hash
	size int
}{
	1: {crypto.SHA1, 20},
	2: {crypto.SHA256, 32},
	3: {crypto.SHA256, 20},
	4: {crypto.SHA384, 48},
}

// headerLenOf is the fixed part a CodeDirectory of version v has.
func headerLenOf(v uint32) int {
	switch {
	case v >= cdVersionExecSeg:
		return cdHeaderLen
	case v >= cdVersionCodeLimit:
		return 64
	case v >= cdVersionTeam:
		return 52
	case v >= cdVersionScatter:
		return 48
	}
	return cdBaseHeaderLen
}

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
	return hashPagesWith(code, PageSize, crypto.SHA256, hashSize)
}

// hashPagesWith hashes each page of code, keeping size bytes of each
// digest; a page size of zero makes the whole code one page.
func hashPagesWith(code []byte, page int, h crypto.Hash, size int) [][]byte {
	if page == 0 {
		page = max(len(code), 1)
	}
	var out [][]byte
	for off := 0; off < len(code); off += page {
		d := h.New()
		d.Write(code[off:min(off+page, len(code))])
		out = append(out, d.Sum(nil)[:size])
	}
	return out
}

// digest hashes a blob with the CodeDirectory's hash type.
func (cd codeDirectory) digest(b []byte) []byte {
	t := cdHashes[cd.HashType]
	d := t.hash.New()
	d.Write(b)
	return d.Sum(nil)[:t.size]
}

// marshal writes the CodeDirectory; a zero HashType is SHA-256, the
// Signer's.
func (cd codeDirectory) marshal() []byte {
	if cd.HashType == 0 {
		cd.HashType = hashTypeSHA
	}
	size := cdHashes[cd.HashType].size
	ident := append([]byte(cd.Identifier), 0)
	team := append([]byte(cd.TeamID), 0)
	identOff := uint32(cdHeaderLen)
	teamOff := identOff + uint32(len(ident))
	hashOff := teamOff + uint32(len(team)) + uint32(len(cd.Special)*size)
	if cd.TeamID == "" {
		teamOff, team = 0, nil
		hashOff = identOff + uint32(len(ident)) + uint32(len(cd.Special)*size)
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
	h = append(h, byte(size), cd.HashType, 0, pageShift)
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

// parseCodeDirectory reads a CodeDirectory blob of any version from
// 0x20001 on, hashed with one of cdHashes.
func parseCodeDirectory(b []byte) (codeDirectory, error) {
	b, err := readBlob(b, magicCodeDirectory)
	if err != nil {
		return codeDirectory{}, err
	}
	if len(b) < cdBaseHeaderLen {
		return codeDirectory{}, invalid("short CodeDirectory")
	}
	be := binary.BigEndian
	cd := codeDirectory{Version: be.Uint32(b[8:]), Flags: be.Uint32(b[12:]),
		CodeLimit: uint64(be.Uint32(b[32:])), HashType: b[37], PageShift: b[39]}
	hashOff, identOff := be.Uint32(b[16:]), be.Uint32(b[20:])
	nSpecial, nCode := be.Uint32(b[24:]), be.Uint32(b[28:])
	if cd.Version < cdVersionBase || len(b) < headerLenOf(cd.Version) {
		return codeDirectory{}, invalid("CodeDirectory version %#x with %d bytes", cd.Version, len(b))
	}
	kind, ok := cdHashes[cd.HashType]
	if !ok || int(b[36]) != kind.size || !kind.hash.Available() {
		return codeDirectory{}, invalid("CodeDirectory hash type %d size %d is not one this reader knows", cd.HashType, b[36])
	}
	if cd.PageShift > maxReadablePageBits {
		return codeDirectory{}, invalid("CodeDirectory page size 2^%d", cd.PageShift)
	}
	if cd.Version >= cdVersionCodeLimit {
		if limit64 := be.Uint64(b[56:]); limit64 != 0 {
			cd.CodeLimit = limit64
		}
	}
	if cd.Version >= cdVersionExecSeg {
		cd.ExecSegBase, cd.ExecSegLimit, cd.ExecSegFlags = be.Uint64(b[64:]), be.Uint64(b[72:]), be.Uint64(b[80:])
	}
	if cd.Identifier, err = cString(b, identOff); err != nil {
		return codeDirectory{}, err
	}
	if cd.Version >= cdVersionTeam {
		if teamOff := be.Uint32(b[48:]); teamOff != 0 {
			if cd.TeamID, err = cString(b, teamOff); err != nil {
				return codeDirectory{}, err
			}
		}
	}
	size := uint64(kind.size)
	if uint64(hashOff) < uint64(nSpecial)*size || uint64(hashOff)+uint64(nCode)*size > uint64(len(b)) {
		return codeDirectory{}, invalid("CodeDirectory hash array runs outside it")
	}
	for i := uint64(1); i <= uint64(nSpecial); i++ {
		at := uint64(hashOff) - i*size
		cd.Special = append(cd.Special, b[at:at+size])
	}
	for i := uint64(0); i < uint64(nCode); i++ {
		at := uint64(hashOff) + i*size
		cd.Code = append(cd.Code, b[at:at+size])
	}
	return cd, nil
}

// pageSize is the CodeDirectory's page size in bytes; 0 means one page.
func (cd codeDirectory) pageSize() int {
	if cd.PageShift == 0 {
		return 0
	}
	return 1 << cd.PageShift
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
