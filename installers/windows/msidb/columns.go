package msidb

import (
	"fmt"
	"strconv"
)

// Column is one column of a table schema. Type is in Microsoft's text
// archive (IDT) notation, as msiinfo prints it: a letter for the kind, a
// number for the size. Lower case is not nullable, upper case nullable:
//
//	s72, S255  string of at most that many characters (0: unlimited)
//	l255, L0   localizable string
//	i2, I2     16-bit integer;  i4, I4  32-bit integer
//	v0, V0     binary data, stored as its own stream
type Column struct {
	Name string
	Type string
	Key  bool // part of the primary key; key columns come first
}

// Bits of _Columns.Type.
const (
	bitsSize        = 0x00ff
	bitsPersistent  = 0x0100
	bitsLocalizable = 0x0200
	bitsCategory    = 0x0c00
	bitsNullable    = 0x1000
	bitsKey         = 0x2000
	bitsTemporary   = 0x4000

	categoryString = 0x0c00
	categoryBinary = 0x0800
	categoryShort  = 0x0400
	categoryLong   = 0x0000
)

type kind int

const (
	kindString kind = iota
	kindShort
	kindLong
	kindBinary
)

// columnType is a column's decoded type.
type columnType struct {
	kind        kind
	size        int
	nullable    bool
	localizable bool
}

func parseType(idt string) (columnType, error) {
	bad := fmt.Errorf("msidb: column type %q: want s, l, i or v (upper case when nullable) and a size", idt)
	if len(idt) < 2 {
		return columnType{}, bad
	}
	size, err := strconv.Atoi(idt[1:])
	if err != nil || size < 0 || size > bitsSize || strconv.Itoa(size) != idt[1:] {
		return columnType{}, bad
	}
	t := columnType{size: size}
	switch idt[0] {
	case 's', 'l', 'i', 'v':
	case 'S', 'L', 'I', 'V':
		t.nullable = true
	default:
		return columnType{}, bad
	}
	switch idt[0] | 0x20 {
	case 'l':
		t.localizable = true
		fallthrough
	case 's':
		t.kind = kindString
	case 'i':
		switch size {
		case 2:
			t.kind = kindShort
		case 4:
			t.kind = kindLong
		default:
			return columnType{}, bad
		}
	case 'v':
		if size != 0 {
			return columnType{}, bad
		}
		t.kind = kindBinary
	}
	return t, nil
}

func (t columnType) idt() string {
	letter := map[kind]byte{kindString: 's', kindShort: 'i', kindLong: 'i', kindBinary: 'v'}[t.kind]
	if t.localizable {
		letter = 'l'
	}
	if t.nullable {
		letter -= 0x20
	}
	return string(letter) + strconv.Itoa(t.size)
}

// bits is the stored _Columns.Type value.
func (t columnType) bits(key bool) uint16 {
	b := uint16(bitsPersistent | t.size)
	switch t.kind {
	case kindString:
		b |= categoryString
	case kindShort:
		b |= categoryShort
	case kindBinary:
		b |= categoryBinary
	}
	if t.localizable {
		b |= bitsLocalizable
	}
	if t.nullable {
		b |= bitsNullable
	}
	if key {
		b |= bitsKey
	}
	return b
}

// columnFromBits is the reverse of bits; it refuses combinations that no
// writer produces, such as a 16-bit integer of size 4.
func columnFromBits(name string, b uint16) (Column, error) {
	t := columnType{size: int(b & bitsSize), nullable: b&bitsNullable != 0, localizable: b&bitsLocalizable != 0}
	switch b & bitsCategory {
	case categoryString:
		t.kind = kindString
	case categoryBinary:
		t.kind = kindBinary
	case categoryShort:
		t.kind = kindShort
	case categoryLong:
		t.kind = kindLong
	}
	ok := b&bitsPersistent != 0 && b&bitsTemporary == 0 && b&0x8000 == 0
	switch t.kind {
	case kindShort:
		ok = ok && t.size == 2 && !t.localizable
	case kindLong:
		ok = ok && t.size == 4 && !t.localizable
	case kindBinary:
		ok = ok && t.size == 0 && !t.localizable
	}
	if !ok {
		return Column{}, fmt.Errorf("msidb: column %q: unsupported type bits %#04x", name, b)
	}
	return Column{Name: name, Type: t.idt(), Key: b&bitsKey != 0}, nil
}

// width is the bytes one cell takes in a table stream.
func (t columnType) width(idBytes int) int {
	switch t.kind {
	case kindString:
		return idBytes
	case kindLong:
		return 4
	default:
		return 2
	}
}
