package msidb

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sort"
)

// The string table: _StringPool holds a header (code page, and bit 31 set
// when string ids take 3 bytes) then (length, refcount) per id; a string
// of 64 KiB or more takes two entries, (0, length>>16) then (length&0xffff,
// refcount). _StringData is the strings' bytes in id order.
const (
	poolLongIDs  = 0x8000_0000
	maxShortIDs  = 0xffff
	maxStringLen = 1<<32 - 1
)

// pool assigns string ids for writing.
type pool struct {
	ids     map[string]int
	strs    []string // strs[id-1]
	refs    []int
	idBytes int
}

// newPool sorts the strings by bytes and numbers them from 1, so id order
// and byte order agree. refs counts the cells that refer to each string.
func newPool(refs map[string]int) *pool {
	p := &pool{ids: make(map[string]int, len(refs)), idBytes: 2}
	for s := range refs {
		p.strs = append(p.strs, s)
	}
	sort.Strings(p.strs)
	for i, s := range p.strs {
		p.ids[s] = i + 1
		p.refs = append(p.refs, refs[s])
	}
	if len(p.strs) > maxShortIDs {
		p.idBytes = 3
	}
	return p
}

func (p *pool) encode(codepage int) (poolData, strData []byte, err error) {
	header := uint32(codepage)
	if p.idBytes == 3 {
		header |= poolLongIDs
	}
	poolData = binary.LittleEndian.AppendUint32(nil, header)
	for i, s := range p.strs {
		n, ref := len(s), p.refs[i]
		if ref > 0xffff {
			ref = 0xffff // the count saturates; readers ignore it
		}
		if uint64(n) > maxStringLen {
			return nil, nil, fmt.Errorf("msidb: string of %d bytes is too long", n)
		}
		if n > 0xffff {
			poolData = binary.LittleEndian.AppendUint16(poolData, 0)
			poolData = binary.LittleEndian.AppendUint16(poolData, uint16(n>>16))
		}
		poolData = binary.LittleEndian.AppendUint16(poolData, uint16(n))
		poolData = binary.LittleEndian.AppendUint16(poolData, uint16(ref))
		strData = append(strData, s...)
	}
	return poolData, strData, nil
}

// stringTable is the string table as read: strs[id] (strs[0] is null).
type stringTable struct {
	codepage int
	idBytes  int
	strs     []string
}

var errPool = errors.New("msidb: corrupt string pool")

func decodePool(poolData, strData []byte) (stringTable, error) {
	st := stringTable{idBytes: 2, strs: []string{""}}
	if len(poolData) == 0 {
		return st, nil // an empty database
	}
	if len(poolData)%4 != 0 {
		return st, fmt.Errorf("%w: %d bytes, not a multiple of 4", errPool, len(poolData))
	}
	header := binary.LittleEndian.Uint32(poolData)
	if header&poolLongIDs != 0 {
		st.idBytes = 3
	}
	st.codepage = int(header &^ poolLongIDs)
	st.strs = make([]string, 1, len(poolData)/4)
	off := 0
	for e := 4; e < len(poolData); e += 4 {
		n := int(binary.LittleEndian.Uint16(poolData[e:]))
		ref := binary.LittleEndian.Uint16(poolData[e+2:])
		if n == 0 && ref != 0 {
			e += 4
			if e >= len(poolData) {
				return st, fmt.Errorf("%w: long string entry cut short", errPool)
			}
			n = int(ref)<<16 | int(binary.LittleEndian.Uint16(poolData[e:]))
		}
		if n > len(strData)-off {
			return st, fmt.Errorf("%w: string %d runs past the %d bytes of string data", errPool, len(st.strs), len(strData))
		}
		st.strs = append(st.strs, string(strData[off:off+n]))
		off += n
	}
	if off != len(strData) {
		return st, fmt.Errorf("%w: %d bytes of string data left over", errPool, len(strData)-off)
	}
	return st, nil
}

func (st stringTable) lookup(id int) (string, error) {
	if id >= len(st.strs) {
		return "", fmt.Errorf("msidb: string id %d, the pool has %d", id, len(st.strs)-1)
	}
	return st.strs[id], nil
}
