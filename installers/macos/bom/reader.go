package bom

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// BOM is what a Reader found.
type BOM struct {
	// Paths in leaf order, which is (parent id, name) order.
	Paths []Header
	// Vars names the variables in file order.
	Vars []string
	// BomInfo holds the numberOfPaths field and the per-CPU totals.
	NumberOfPaths uint32
	InfoTotals    []uint32
	// PathsBlockSize is the Paths tree's node size.
	PathsBlockSize uint32
	// VIndexBlockSize is the VIndex tree's node size.
	VIndexBlockSize uint32
}

type store struct {
	data   []byte
	blocks [][2]uint32 // address, length
	vars   map[string]uint32
}

// Read parses a BOM held in memory. Every offset is bounds-checked, so
// garbage gives an error, never a panic.
func Read(data []byte) (*BOM, error) {
	s, names, err := openStore(data)
	if err != nil {
		return nil, err
	}
	out := &BOM{Vars: names}
	if err := s.readInfo(out); err != nil {
		return nil, err
	}
	if out.VIndexBlockSize, err = s.vindexBlockSize(); err != nil {
		return nil, err
	}
	if err := s.readPaths(out); err != nil {
		return nil, err
	}
	return out, nil
}

func errf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrFormat}, args...)...)
}

func openStore(data []byte) (*store, []string, error) {
	if len(data) < 32 || string(data[:8]) != magic || u32(data[8:]) != 1 {
		return nil, nil, errf("not a BOMStore")
	}
	indexOff, indexLen := u32(data[16:]), u32(data[20:])
	varsOff, varsLen := u32(data[24:]), u32(data[28:])
	index, ok := span(data, indexOff, indexLen)
	if !ok || len(index) < 4 {
		return nil, nil, errf("block table out of bounds")
	}
	count := u32(index)
	if uint64(count)*8+4 > uint64(len(index)) {
		return nil, nil, errf("block table claims %d slots", count)
	}
	s := &store{data: data, vars: map[string]uint32{}}
	for i := range count {
		e := index[4+8*i:]
		addr, length := u32(e), u32(e[4:])
		if _, ok := span(data, addr, length); !ok {
			return nil, nil, errf("block %d out of bounds", i)
		}
		s.blocks = append(s.blocks, [2]uint32{addr, length})
	}
	vars, ok := span(data, varsOff, varsLen)
	if !ok || len(vars) < 4 {
		return nil, nil, errf("variables out of bounds")
	}
	var names []string
	rest := vars[4:]
	for range u32(vars) {
		if len(rest) < 5 || len(rest) < 5+int(rest[4]) {
			return nil, nil, errf("variables truncated")
		}
		name := string(rest[5 : 5+int(rest[4])])
		s.vars[name] = u32(rest)
		names = append(names, name)
		rest = rest[5+int(rest[4]):]
	}
	return s, names, nil
}

func span(data []byte, off, length uint32) ([]byte, bool) {
	end := uint64(off) + uint64(length)
	if end > uint64(len(data)) {
		return nil, false
	}
	return data[off:end], true
}

func u32(b []byte) uint32 { return binary.BigEndian.Uint32(b) }
func u16(b []byte) uint16 { return binary.BigEndian.Uint16(b) }

// block returns block i, which must be at least min bytes long.
func (s *store) block(i uint32, min int) ([]byte, error) {
	if i == 0 || int(i) >= len(s.blocks) {
		return nil, errf("block index %d out of range", i)
	}
	b := s.data[s.blocks[i][0] : s.blocks[i][0]+s.blocks[i][1]]
	if len(b) < min {
		return nil, errf("block %d too short", i)
	}
	return b, nil
}

func (s *store) variable(name string) (uint32, error) {
	i, ok := s.vars[name]
	if !ok {
		return 0, errf("no %s variable", name)
	}
	return i, nil
}

func (s *store) readInfo(out *BOM) error {
	i, err := s.variable("BomInfo")
	if err != nil {
		return err
	}
	b, err := s.block(i, 12)
	if err != nil {
		return err
	}
	out.NumberOfPaths = u32(b[4:])
	n := u32(b[8:])
	if uint64(len(b)) < 12+16*uint64(n) {
		return errf("BomInfo truncated")
	}
	for k := range n {
		out.InfoTotals = append(out.InfoTotals, u32(b[12+16*k+8:]))
	}
	return nil
}

// treeHeader reads a "tree" block: root node and node size.
func (s *store) treeHeader(i uint32) (child, blockSize, count uint32, err error) {
	b, err := s.block(i, 21)
	if err != nil {
		return 0, 0, 0, err
	}
	if string(b[:4]) != treeMagic || u32(b[4:]) != 1 {
		return 0, 0, 0, errf("block %d is not a tree", i)
	}
	return u32(b[8:]), u32(b[12:]), u32(b[16:]), nil
}

func (s *store) vindexBlockSize() (uint32, error) {
	i, err := s.variable("VIndex")
	if err != nil {
		return 0, err
	}
	b, err := s.block(i, 8)
	if err != nil {
		return 0, err
	}
	_, size, _, err := s.treeHeader(u32(b[4:]))
	return size, err
}

// node reads a tree node: leaf flag, forward/backward links and pairs.
func (s *store) node(i uint32) (isLeaf bool, fwd, back uint32, pairs [][2]uint32, err error) {
	b, err := s.block(i, 12)
	if err != nil {
		return false, 0, 0, nil, err
	}
	n := int(u16(b[2:]))
	if len(b) < 12+8*n {
		return false, 0, 0, nil, errf("node %d holds fewer pairs than it claims", i)
	}
	for k := range n {
		pairs = append(pairs, [2]uint32{u32(b[12+8*k:]), u32(b[16+8*k:])})
	}
	return u16(b) == 1, u32(b[4:]), u32(b[8:]), pairs, nil
}

func (s *store) readPaths(out *BOM) error {
	i, err := s.variable("Paths")
	if err != nil {
		return err
	}
	child, size, count, err := s.treeHeader(i)
	if err != nil {
		return err
	}
	out.PathsBlockSize = size
	pairs, err := s.leafPairs(child)
	if err != nil {
		return err
	}
	if uint32(len(pairs)) != count {
		return errf("Paths tree counts %d, leaves hold %d", count, len(pairs))
	}
	names := map[uint32]string{}
	prevParent, prevName := uint32(0), []byte(nil)
	for k, p := range pairs {
		h, id, parent, name, err := s.pathEntry(p)
		if err != nil {
			return err
		}
		if k > 0 && (parent < prevParent || parent == prevParent && bytes.Compare(name, prevName) <= 0) {
			return errf("paths out of (parent, name) order at %q", name)
		}
		prevParent, prevName = parent, name
		switch {
		case parent == 0:
			h.Name = string(name)
		case names[parent] != "":
			h.Name = names[parent] + "/" + string(name)
		default:
			return errf("path %q has an unknown parent %d", name, parent)
		}
		names[id] = h.Name
		out.Paths = append(out.Paths, h)
	}
	return nil
}

// leafPairs walks down the first children to the first leaf, then along
// the forward links, guarding against loops.
func (s *store) leafPairs(root uint32) ([][2]uint32, error) {
	i := root
	for depth := 0; ; depth++ {
		if depth > 8 {
			return nil, errf("Paths tree too deep")
		}
		isLeaf, _, _, pairs, err := s.node(i)
		if err != nil {
			return nil, err
		}
		if isLeaf {
			break
		}
		if len(pairs) == 0 {
			return nil, errf("empty branch node %d", i)
		}
		i = pairs[0][0]
	}
	var all [][2]uint32
	seen := map[uint32]bool{}
	prev := uint32(0)
	for i != 0 {
		if seen[i] {
			return nil, errf("leaf chain loops at block %d", i)
		}
		seen[i] = true
		_, fwd, back, pairs, err := s.node(i)
		if err != nil {
			return nil, err
		}
		if back != prev {
			return nil, errf("leaf %d links back to %d, not %d", i, back, prev)
		}
		all = append(all, pairs...)
		prev, i = i, fwd
	}
	return all, nil
}

// pathEntry decodes one leaf pair: value (id, record) and key (parent,
// name).
func (s *store) pathEntry(p [2]uint32) (Header, uint32, uint32, []byte, error) {
	val, err := s.block(p[0], 8)
	if err != nil {
		return Header{}, 0, 0, nil, err
	}
	key, err := s.block(p[1], 5)
	if err != nil {
		return Header{}, 0, 0, nil, err
	}
	name, _, ok := bytes.Cut(key[4:], []byte{0})
	if !ok || len(name) == 0 || bytes.IndexByte(name, '/') >= 0 {
		return Header{}, 0, 0, nil, errf("bad key block %d", p[1])
	}
	rec, err := s.block(u32(val[4:]), 31)
	if err != nil {
		return Header{}, 0, 0, nil, err
	}
	h := Header{
		Arch: u16(rec[2:]), Mode: u16(rec[4:]),
		UID: u32(rec[6:]), GID: u32(rec[10:]), ModTime: u32(rec[14:]),
		Size: u32(rec[18:]), Checksum: u32(rec[23:]), RecordLen: len(rec),
	}
	if rec[0] == TypeSymlink {
		n := u32(rec[27:])
		if n == 0 || uint64(31)+uint64(n) > uint64(len(rec)) {
			return Header{}, 0, 0, nil, errf("symlink record %d truncated", u32(val[4:]))
		}
		h.Linkname = string(rec[31 : 31+n-1])
	}
	return h, u32(val), u32(key), name, nil
}
