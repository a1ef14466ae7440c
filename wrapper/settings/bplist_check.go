package settings

import (
	"bytes"
	"encoding/binary"
	"errors"
)

// howett.net/plist trusts the lengths a binary plist claims: a string
// claiming 2^64-1 bytes wraps its bounds check and decodes into a broken
// string that crashes the process on first use, beyond any recover. So
// every object of a binary plist is checked here, against the bytes that
// are really present, before the decoder sees the file.

var errBadBplist = errors.New("binary plist fails structural check")

const (
	bplistHeaderLen  = 8
	bplistTrailerLen = 32
	maxPlistDepth    = 32
)

type bplist struct {
	data       []byte
	offsetSize int
	refSize    int
	numObjects uint64
	topObject  uint64
	tableStart uint64 // offset table; objects live before it
	offsets    []uint64
}

func isBinaryPlist(data []byte) bool { return bytes.HasPrefix(data, []byte("bplist")) }

// checkBinaryPlist accepts only a binary plist in which every object lies
// inside the object area, every reference names an object, and nesting is
// acyclic and shallow.
func checkBinaryPlist(data []byte) error {
	p, err := readTrailer(data)
	if err != nil {
		return err
	}
	children := make([][]uint64, p.numObjects)
	for i := range p.offsets {
		refs, err := p.checkObject(p.offsets[i])
		if err != nil {
			return err
		}
		children[i] = refs
	}
	return checkNesting(children, p.topObject)
}

func readTrailer(data []byte) (*bplist, error) {
	if len(data) < bplistHeaderLen+bplistTrailerLen+1 || !bytes.HasPrefix(data, []byte("bplist00")) {
		return nil, errBadBplist
	}
	t := data[len(data)-bplistTrailerLen:]
	p := &bplist{
		data:       data,
		offsetSize: int(t[6]),
		refSize:    int(t[7]),
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
	if p.numObjects > (trailerStart-p.tableStart)/uint64(p.offsetSize) || p.topObject >= p.numObjects {
		return nil, errBadBplist
	}
	p.offsets = make([]uint64, p.numObjects)
	for i := range p.offsets {
		at := p.tableStart + uint64(i*p.offsetSize)
		off := readUint(data[at : at+uint64(p.offsetSize)])
		if off < bplistHeaderLen || off >= p.tableStart {
			return nil, errBadBplist
		}
		p.offsets[i] = off
	}
	return p, nil
}

func validIntSize(n int) bool { return n == 1 || n == 2 || n == 4 || n == 8 }

func readUint(b []byte) uint64 {
	var v uint64
	for _, c := range b {
		v = v<<8 | uint64(c)
	}
	return v
}

// room is how many object bytes remain from off to the offset table.
func (p *bplist) room(off uint64) uint64 {
	if off > p.tableStart {
		return 0
	}
	return p.tableStart - off
}

// checkObject validates the object at off and returns the objects it
// refers to.
func (p *bplist) checkObject(off uint64) ([]uint64, error) {
	tag := p.data[off]
	kind, low := tag>>4, tag&0x0f
	switch kind {
	case 0x0:
		if low == 0x0 || low == 0x8 || low == 0x9 || low == 0xf {
			return nil, nil
		}
	case 0x1:
		if low <= 4 && p.room(off) >= 1+(1<<low) {
			return nil, nil
		}
	case 0x2:
		if (low == 2 || low == 3) && p.room(off) >= 1+(1<<low) {
			return nil, nil
		}
	case 0x3:
		if low == 3 && p.room(off) >= 9 {
			return nil, nil
		}
	case 0x4, 0x5:
		return nil, p.checkSized(off, 1)
	case 0x6:
		return nil, p.checkSized(off, 2)
	case 0x8:
		if low <= 7 && p.room(off) >= 2+uint64(low) {
			return nil, nil
		}
	case 0xa, 0xc:
		return p.checkRefs(off, 1)
	case 0xd:
		return p.checkRefs(off, 2)
	}
	return nil, errBadBplist
}

// count reads the element count of a sized object: the tag's low nibble, or
// an integer object after it when the nibble is 0xf.
func (p *bplist) count(off uint64) (n, start uint64, err error) {
	low := p.data[off] & 0x0f
	if low != 0x0f {
		return uint64(low), off + 1, nil
	}
	if p.room(off) < 2 {
		return 0, 0, errBadBplist
	}
	intTag := p.data[off+1]
	if intTag>>4 != 0x1 || intTag&0x0f > 3 {
		return 0, 0, errBadBplist
	}
	size := uint64(1) << (intTag & 0x0f)
	if p.room(off+2) < size {
		return 0, 0, errBadBplist
	}
	return readUint(p.data[off+2 : off+2+size]), off + 2 + size, nil
}

func (p *bplist) checkSized(off, unit uint64) error {
	n, start, err := p.count(off)
	if err != nil {
		return err
	}
	if n > p.room(start)/unit {
		return errBadBplist
	}
	return nil
}

func (p *bplist) checkRefs(off, perEntry uint64) ([]uint64, error) {
	n, start, err := p.count(off)
	if err != nil {
		return nil, err
	}
	size := uint64(p.refSize)
	if n > p.room(start)/(perEntry*size) {
		return nil, errBadBplist
	}
	refs := make([]uint64, 0, n*perEntry)
	for i := uint64(0); i < n*perEntry; i++ {
		at := start + i*size
		ref := readUint(p.data[at : at+size])
		if ref >= p.numObjects {
			return nil, errBadBplist
		}
		refs = append(refs, ref)
	}
	return refs, nil
}

// checkNesting walks the containers reachable from the top object and
// rejects cycles and nesting deeper than maxPlistDepth.
func checkNesting(children [][]uint64, top uint64) error {
	const unseen, open = -1, -2
	height := make([]int, len(children))
	for i := range height {
		height[i] = unseen
	}
	var walk func(i uint64, depth int) (int, error)
	walk = func(i uint64, depth int) (int, error) {
		switch {
		case height[i] == open || depth > maxPlistDepth:
			return 0, errBadBplist
		case height[i] >= 0:
			if depth+height[i] > maxPlistDepth {
				return 0, errBadBplist
			}
			return height[i], nil
		}
		height[i] = open
		h := 0
		for _, c := range children[i] {
			ch, err := walk(c, depth+1)
			if err != nil {
				return 0, err
			}
			h = max(h, ch+1)
		}
		height[i] = h
		return h, nil
	}
	_, err := walk(top, 0)
	return err
}
