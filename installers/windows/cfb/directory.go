package cfb

import (
	"encoding/binary"
	"unicode"
	"unicode/utf16"
)

// Object types of a directory entry ([MS-CFB] 2.6.1).
const (
	typeUnused  = 0
	typeStorage = 1
	typeStream  = 2
	typeRoot    = 5
)

const (
	colorBlack  = 1
	maxNameLen  = 31 // UTF-16 units, without the terminating NUL
	nameField   = 64
	rootName    = "Root Entry"
	sizeLow32   = 0xFFFFFFFF
	v3SizeLimit = 1<<31 - 1
)

// dirEntry is one 128-byte directory entry.
type dirEntry struct {
	name        []uint16
	objectType  byte
	color       byte
	left, right uint32
	child       uint32
	clsid       [16]byte
	start       uint32
	size        uint64
}

func unusedEntry() dirEntry {
	return dirEntry{left: noStream, right: noStream, child: noStream}
}

func (e *dirEntry) marshal(b []byte) {
	le := binary.LittleEndian
	clear(b[:dirEntrySize])
	for i, u := range e.name {
		le.PutUint16(b[2*i:], u)
	}
	if e.objectType != typeUnused {
		le.PutUint16(b[0x40:], uint16(2*(len(e.name)+1)))
	}
	b[0x42] = e.objectType
	b[0x43] = e.color
	le.PutUint32(b[0x44:], e.left)
	le.PutUint32(b[0x48:], e.right)
	le.PutUint32(b[0x4C:], e.child)
	copy(b[0x50:], e.clsid[:])
	le.PutUint32(b[0x74:], e.start)
	le.PutUint64(b[0x78:], e.size)
}

// parseDirEntry decodes an entry. A name length that does not fit the
// name field, or a name without its NUL, is corrupt.
func parseDirEntry(b []byte, version uint16) (dirEntry, error) {
	le := binary.LittleEndian
	e := dirEntry{
		objectType: b[0x42],
		color:      b[0x43],
		left:       le.Uint32(b[0x44:]),
		right:      le.Uint32(b[0x48:]),
		child:      le.Uint32(b[0x4C:]),
		start:      le.Uint32(b[0x74:]),
		size:       le.Uint64(b[0x78:]),
	}
	copy(e.clsid[:], b[0x50:0x60])
	if version == 3 {
		e.size &= sizeLow32
	}
	if e.objectType == typeUnused {
		return e, nil
	}
	n := int(le.Uint16(b[0x40:]))
	if n < 2 || n > nameField || n%2 != 0 {
		return e, corrupt("directory entry name length %d", n)
	}
	units := n/2 - 1
	if le.Uint16(b[2*units:]) != 0 {
		return e, corrupt("directory entry name without NUL")
	}
	e.name = make([]uint16, units)
	for i := range e.name {
		e.name[i] = le.Uint16(b[2*i:])
	}
	return e, nil
}

// compareNames orders sibling names as [MS-CFB] 2.6.4 asks: shorter names
// first, then unit by unit after simple upper-case mapping.
func compareNames(a, b []uint16) int {
	if len(a) != len(b) {
		return cmpInt(len(a), len(b))
	}
	for i := range a {
		ua, ub := upper(a[i]), upper(b[i])
		if ua != ub {
			return cmpInt(int(ua), int(ub))
		}
	}
	return 0
}

func upper(u uint16) uint16 {
	if utf16.IsSurrogate(rune(u)) {
		return u
	}
	up := unicode.ToUpper(rune(u))
	if up > 0xFFFF {
		return u
	}
	return uint16(up)
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
