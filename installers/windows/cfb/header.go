package cfb

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
)

const headerSize = 512

var signature = [8]byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}

const (
	minorVersion = 0x003E
	majorVersion = 3
	byteOrder    = 0xFFFE
)

// header is the compound file header ([MS-CFB] 2.2) without its
// constant fields.
type header struct {
	majorVersion    uint16
	sectorShift     uint16
	miniSectorShift uint16
	numDirSectors   uint32
	numFATSectors   uint32
	firstDirSector  uint32
	miniCutoff      uint32
	firstMiniFAT    uint32
	numMiniFAT      uint32
	firstDIFAT      uint32
	numDIFAT        uint32
	difat           [headerDIFAT]uint32
}

func (h *header) marshal() []byte {
	b := make([]byte, headerSize)
	le := binary.LittleEndian
	copy(b, signature[:])
	le.PutUint16(b[0x18:], minorVersion)
	le.PutUint16(b[0x1A:], h.majorVersion)
	le.PutUint16(b[0x1C:], byteOrder)
	le.PutUint16(b[0x1E:], h.sectorShift)
	le.PutUint16(b[0x20:], h.miniSectorShift)
	le.PutUint32(b[0x28:], h.numDirSectors)
	le.PutUint32(b[0x2C:], h.numFATSectors)
	le.PutUint32(b[0x30:], h.firstDirSector)
	le.PutUint32(b[0x38:], h.miniCutoff)
	le.PutUint32(b[0x3C:], h.firstMiniFAT)
	le.PutUint32(b[0x40:], h.numMiniFAT)
	le.PutUint32(b[0x44:], h.firstDIFAT)
	le.PutUint32(b[0x48:], h.numDIFAT)
	for i, s := range h.difat {
		le.PutUint32(b[0x4C+4*i:], s)
	}
	return b
}

// Errors a reader returns for a file that is not a usable compound file.
var (
	ErrNotCompoundFile = errors.New("cfb: not a compound file")
	ErrCorrupt         = errors.New("cfb: corrupt compound file")
)

func corrupt(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrCorrupt, fmt.Sprintf(format, args...))
}

func parseHeader(b []byte) (*header, error) {
	if len(b) < headerSize || !bytes.Equal(b[:8], signature[:]) {
		return nil, ErrNotCompoundFile
	}
	le := binary.LittleEndian
	h := &header{
		majorVersion:    le.Uint16(b[0x1A:]),
		sectorShift:     le.Uint16(b[0x1E:]),
		miniSectorShift: le.Uint16(b[0x20:]),
		numDirSectors:   le.Uint32(b[0x28:]),
		numFATSectors:   le.Uint32(b[0x2C:]),
		firstDirSector:  le.Uint32(b[0x30:]),
		miniCutoff:      le.Uint32(b[0x38:]),
		firstMiniFAT:    le.Uint32(b[0x3C:]),
		numMiniFAT:      le.Uint32(b[0x40:]),
		firstDIFAT:      le.Uint32(b[0x44:]),
		numDIFAT:        le.Uint32(b[0x48:]),
	}
	for i := range h.difat {
		h.difat[i] = le.Uint32(b[0x4C+4*i:])
	}
	if order := le.Uint16(b[0x1C:]); order != byteOrder {
		return nil, corrupt("byte order mark %#04x", order)
	}
	switch {
	case h.majorVersion == 3 && h.sectorShift == 9:
	case h.majorVersion == 4 && h.sectorShift == 12:
	default:
		return nil, corrupt("version %d with sector shift %d", h.majorVersion, h.sectorShift)
	}
	if h.miniSectorShift != miniSectorShift {
		return nil, corrupt("mini sector shift %d", h.miniSectorShift)
	}
	if h.miniCutoff != miniCutoff {
		return nil, corrupt("mini stream cutoff %d", h.miniCutoff)
	}
	return h, nil
}
