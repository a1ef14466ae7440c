package managed

import (
	"bytes"
	"encoding/binary"
	"errors"
	"unicode/utf16"

	"github.com/ctrld-install/ctrld-install/internal/settings"
)

// A binary plist is read here directly, never by a general decoder: a
// general decoder trusts the lengths the file claims (howett.net/plist
// decodes a string claiming 2^64-1 bytes into a broken string that kills
// the process on first use) and materialises every object, so a file
// whose objects share children expands exponentially. This reader checks
// every object against the bytes really present, without allocating per
// object, then looks only at the top dictionary's entries and decodes at
// most one value per known key. Nesting is never followed, so neither
// depth nor sharing costs anything.

var errBadBplist = errors.New("binary plist fails structural check")

const (
	bplistHeaderLen  = 8
	bplistTrailerLen = 32
	bplistMagic      = "bplist00"
)

// Object kinds: the high nibble of an object's tag byte.
const (
	kindSimple  = 0x0 // null, false, true, fill
	kindInt     = 0x1
	kindReal    = 0x2
	kindDate    = 0x3
	kindData    = 0x4
	kindASCII   = 0x5
	kindUTF16   = 0x6
	kindUID     = 0x8
	kindArray   = 0xa
	kindSet     = 0xc
	kindDict    = 0xd
	tagFalse    = 0x08
	tagTrue     = 0x09
	countInNext = 0x0f // the count follows as an integer object
)

type bplist struct {
	data       []byte
	offsetSize uint64
	refSize    uint64
	numObjects uint64
	topObject  uint64
	tableStart uint64   // offset table; objects live before it
	badRefs    []uint32 // see refsValid; built on first use
}

func isBinaryPlist(data []byte) bool { return bytes.HasPrefix(data, []byte("bplist")) }

// parseBinaryPlist returns the known keys of the top dictionary, each as
// the value object it names (the last entry wins, as in a dictionary).
func parseBinaryPlist(data []byte) (*rawValues, error) {
	p, err := readTrailer(data)
	if err != nil {
		return nil, err
	}
	if err := p.checkObjects(); err != nil {
		return nil, err
	}
	return p.topDict()
}

func readTrailer(data []byte) (*bplist, error) {
	if len(data) < bplistHeaderLen+bplistTrailerLen+1 || !bytes.HasPrefix(data, []byte(bplistMagic)) {
		return nil, errBadBplist
	}
	t := data[len(data)-bplistTrailerLen:]
	p := &bplist{
		data:       data,
		offsetSize: uint64(t[6]),
		refSize:    uint64(t[7]),
		numObjects: binary.BigEndian.Uint64(t[8:]),
		topObject:  binary.BigEndian.Uint64(t[16:]),
		tableStart: binary.BigEndian.Uint64(t[24:]),
	}
	if !validIntSize(p.offsetSize) || !validIntSize(p.refSize) {
		return nil, errBadBplist
	}
	trailerStart := uint64(len(data) - bplistTrailerLen)
	if p.tableStart < bplistHeaderLen || p.tableStart > trailerStart || p.numObjects == 0 {
		return nil, errBadBplist
	}
	if p.numObjects > (trailerStart-p.tableStart)/p.offsetSize || p.topObject >= p.numObjects {
		return nil, errBadBplist
	}
	return p, nil
}

func validIntSize(n uint64) bool { return n == 1 || n == 2 || n == 4 || n == 8 }

func readUint(b []byte) uint64 {
	var v uint64
	for _, c := range b {
		v = v<<8 | uint64(c)
	}
	return v
}

// offset is where object i starts; readTrailer made sure the table holds
// numObjects entries.
func (p *bplist) offset(i uint64) (uint64, error) {
	at := p.tableStart + i*p.offsetSize
	off := readUint(p.data[at : at+p.offsetSize])
	if off < bplistHeaderLen || off >= p.tableStart {
		return 0, errBadBplist
	}
	return off, nil
}

// room is how many object bytes remain from off to the offset table.
func (p *bplist) room(off uint64) uint64 {
	if off > p.tableStart {
		return 0
	}
	return p.tableStart - off
}

// checkObjects checks every object, so a corrupt file gives no settings
// at all rather than some of them. It is linear in the file's size.
func (p *bplist) checkObjects() error {
	for i := range p.numObjects {
		off, err := p.offset(i)
		if err != nil {
			return err
		}
		if err := p.checkObject(off); err != nil {
			return err
		}
	}
	return nil
}

func (p *bplist) checkObject(off uint64) error {
	tag := p.data[off]
	kind, low := tag>>4, tag&0x0f
	switch kind {
	case kindSimple:
		if low == 0x0 || low == 0x8 || low == 0x9 || low == 0xf {
			return nil
		}
	case kindInt:
		if low <= 4 && p.room(off) >= 1+(1<<low) {
			return nil
		}
	case kindReal:
		if (low == 2 || low == 3) && p.room(off) >= 1+(1<<low) {
			return nil
		}
	case kindDate:
		if low == 3 && p.room(off) >= 9 {
			return nil
		}
	case kindData, kindASCII:
		_, _, err := p.sized(off, 1)
		return err
	case kindUTF16:
		_, _, err := p.sized(off, 2)
		return err
	case kindUID:
		if low <= 7 && p.room(off) >= 2+uint64(low) {
			return nil
		}
	case kindArray, kindSet:
		return p.checkRefs(off, 1)
	case kindDict:
		return p.checkRefs(off, 2)
	}
	return errBadBplist
}

// count reads the element count of a sized object: the tag's low nibble, or
// an integer object after it when the nibble is countInNext.
func (p *bplist) count(off uint64) (n, start uint64, err error) {
	low := p.data[off] & 0x0f
	if low != countInNext {
		return uint64(low), off + 1, nil
	}
	if p.room(off) < 2 {
		return 0, 0, errBadBplist
	}
	intTag := p.data[off+1]
	if intTag>>4 != kindInt || intTag&0x0f > 3 {
		return 0, 0, errBadBplist
	}
	size := uint64(1) << (intTag & 0x0f)
	if p.room(off+2) < size {
		return 0, 0, errBadBplist
	}
	return readUint(p.data[off+2 : off+2+size]), off + 2 + size, nil
}

// sized returns the count and start of an object of count units of unit
// bytes, refusing a count the file does not hold.
func (p *bplist) sized(off, unit uint64) (n, start uint64, err error) {
	n, start, err = p.count(off)
	if err != nil {
		return 0, 0, err
	}
	if n > p.room(start)/unit {
		return 0, 0, errBadBplist
	}
	return n, start, nil
}

func (p *bplist) checkRefs(off, perEntry uint64) error {
	n, start, err := p.sized(off, perEntry*p.refSize)
	if err != nil {
		return err
	}
	if !p.refsValid(start, n*perEntry) {
		return errBadBplist
	}
	return nil
}

// refsValid reports whether the n references from start all name an
// object, in constant time. badRefs[i] counts the references that name
// none among those read at i, i-refSize, i-2*refSize... down to the
// first; the references in question are a run of that chain.
func (p *bplist) refsValid(start, n uint64) bool {
	if n == 0 {
		return true
	}
	if p.badRefs == nil {
		p.badRefs = p.countBadRefs()
	}
	bad := p.badRefs[start+(n-1)*p.refSize]
	if start >= p.refSize {
		bad -= p.badRefs[start-p.refSize]
	}
	return bad == 0
}

// countBadRefs builds refsValid's table: four bytes for each object byte.
func (p *bplist) countBadRefs() []uint32 {
	counts := make([]uint32, p.tableStart)
	for i := uint64(0); i+p.refSize <= p.tableStart; i++ {
		var c uint32
		if readUint(p.data[i:i+p.refSize]) >= p.numObjects {
			c = 1
		}
		if i >= p.refSize {
			c += counts[i-p.refSize]
		}
		counts[i] = c
	}
	return counts
}

func (p *bplist) ref(start, i uint64) uint64 {
	at := start + i*p.refSize
	return readUint(p.data[at : at+p.refSize])
}

// topDict maps each known key of the top dictionary to its value object.
func (p *bplist) topDict() (*rawValues, error) {
	off, err := p.offset(p.topObject)
	if err != nil {
		return nil, err
	}
	if p.data[off]>>4 != kindDict {
		return nil, errBadBplist
	}
	n, start, err := p.sized(off, 2*p.refSize)
	if err != nil {
		return nil, err
	}
	found := newRawValues()
	for i := range n {
		k, ok := p.keyName(p.ref(start, i))
		if !ok {
			continue
		}
		found.set(k, binaryValue{p: p, obj: p.ref(start, n+i)})
	}
	return found, nil
}

// keyName says whether object i is a string naming a known key. It
// compares in place, allocating nothing.
func (p *bplist) keyName(i uint64) (settings.Key, bool) {
	off, err := p.offset(i)
	if err != nil {
		return "", false
	}
	switch p.data[off] >> 4 {
	case kindASCII:
		n, start, _ := p.sized(off, 1)
		if n > maxKeyLen {
			return "", false
		}
		return settings.IsKeyBytes(p.data[start : start+n])
	case kindUTF16:
		n, start, _ := p.sized(off, 2)
		if n > maxKeyLen {
			return "", false
		}
		var ascii [maxKeyLen]byte
		for j := range n {
			hi, lo := p.data[start+2*j], p.data[start+2*j+1]
			if hi != 0 || lo >= 0x80 {
				return "", false
			}
			ascii[j] = lo
		}
		return settings.IsKeyBytes(ascii[:n])
	}
	return "", false
}

func utf16Units(b []byte) []rune {
	units := make([]uint16, len(b)/2)
	for i := range units {
		units[i] = binary.BigEndian.Uint16(b[2*i:])
	}
	return utf16.Decode(units)
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// binaryValue is one value object, decoded only on demand.
type binaryValue struct {
	p   *bplist
	obj uint64
}

func (v binaryValue) decode() (value, error) {
	p := v.p
	off, err := p.offset(v.obj)
	if err != nil {
		return value{}, err
	}
	tag := p.data[off]
	switch {
	case tag == tagFalse || tag == tagTrue:
		return value{kind: valueBool, b: tag == tagTrue}, nil
	case tag>>4 == kindInt:
		size := uint64(1) << (tag & 0x0f)
		return value{kind: valueInt, nonZero: !allZero(p.data[off+1 : off+1+size])}, nil
	case tag>>4 == kindASCII:
		n, start, _ := p.sized(off, 1)
		if n > settings.MaxValueLen {
			return value{kind: valueTooLong}, nil
		}
		return value{kind: valueString, s: string(p.data[start : start+n])}, nil
	case tag>>4 == kindUTF16:
		n, start, _ := p.sized(off, 2)
		if n > settings.MaxValueLen {
			return value{kind: valueTooLong}, nil
		}
		return value{kind: valueString, s: string(utf16Units(p.data[start : start+2*n]))}, nil
	}
	return value{kind: valueOther}, nil
}
