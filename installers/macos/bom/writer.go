package bom

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"
)

// Writer builds a BOM. Entries are kept in memory (a record per path, not
// the file data) and laid out on Close.
type Writer struct {
	w       io.Writer
	entries []*Header
	byName  map[string]*Header
	sum     Cksum
	current *Header
}

// NewWriter writes the BOM to w on Close.
func NewWriter(w io.Writer) *Writer {
	return &Writer{w: w, byName: map[string]*Header{}}
}

// WriteHeader adds a path. The root "." comes first, and every parent
// before its children. A regular file's bytes follow through Write.
func (w *Writer) WriteHeader(h *Header) error {
	w.finish()
	e := *h
	if len(w.entries) == 0 && e.Name != "." || e.Name == "." && len(w.entries) > 0 {
		return ErrNoRoot
	}
	if e.Name != "." {
		if !strings.HasPrefix(e.Name, "./") || strings.HasSuffix(e.Name, "/") {
			return fmt.Errorf("bom: bad path %q", e.Name)
		}
		if _, ok := w.byName[parentOf(e.Name)]; !ok {
			return fmt.Errorf("bom: %q written before its parent", e.Name)
		}
	}
	if _, dup := w.byName[e.Name]; dup {
		return fmt.Errorf("bom: %q written twice", e.Name)
	}
	e.Arch = 0x000F
	e.Size, e.Checksum = 0, 0
	if e.Type() == TypeSymlink {
		e.Size = uint32(len(e.Linkname))
		e.Checksum = Checksum([]byte(e.Linkname))
	}
	w.entries = append(w.entries, &e)
	w.byName[e.Name] = &e
	if e.Type() == TypeFile {
		w.current, w.sum = &e, Cksum{}
	}
	return nil
}

// Write adds bytes of the current file, for its size and checksum.
func (w *Writer) Write(p []byte) (int, error) {
	if w.current == nil {
		return 0, fmt.Errorf("bom: write outside a regular file")
	}
	w.sum.Write(p)
	return len(p), nil
}

func (w *Writer) finish() {
	if w.current != nil {
		w.current.Size = uint32(w.sum.n)
		w.current.Checksum = w.sum.Sum32()
		w.current = nil
	}
}

// parentOf("./a/b") is "./a"; parentOf("./a") is ".".
func parentOf(name string) string { return name[:strings.LastIndex(name, "/")] }

// node is one path in id order, with its parent's id.
type node struct {
	h      *Header
	id     uint32
	parent uint32
}

// order assigns ids breadth-first, children by byte order of name, so id
// order is also the (parent id, name) order the leaves must have.
func (w *Writer) order() []node {
	children := map[string][]*Header{}
	for _, e := range w.entries[1:] {
		dir := parentOf(e.Name)
		children[dir] = append(children[dir], e)
	}
	for _, c := range children {
		sort.Slice(c, func(i, j int) bool { return path.Base(c[i].Name) < path.Base(c[j].Name) })
	}
	nodes := []node{{h: w.entries[0], id: 1}}
	for i := 0; i < len(nodes); i++ {
		for _, c := range children[nodes[i].h.Name] {
			nodes = append(nodes, node{h: c, id: uint32(len(nodes) + 1), parent: nodes[i].id})
		}
	}
	return nodes
}

// Close lays the BOM out and writes it.
func (w *Writer) Close() error {
	w.finish()
	if len(w.entries) == 0 {
		return ErrNoRoot
	}
	nodes := w.order()
	leaves := (len(nodes) + leafCapacity - 1) / leafCapacity
	if leaves > maxBranch {
		return ErrTooLarge
	}
	var b blocks
	b.add(bomInfo(nodes))                  // 1
	pathsTree := b.add(nil)                // 2, filled below
	firstLeaf := b.add(nil)                // 3
	b.add(tree(5, pathsBlockSize, 0))      // 4 HLIndex
	b.add(leaf(0, 0, nil, pathsBlockSize)) // 5
	b.add(vindex(7))                       // 6 VIndex
	b.add(tree(8, vindexBlock, 0))         // 7
	b.add(leaf(0, 0, nil, vindexBlock))    // 8
	b.add(tree(10, pathsBlockSize, 0))     // 9 Size64
	b.add(leaf(0, 0, nil, pathsBlockSize)) // 10
	pairs := make([][2]uint32, len(nodes)) // (value, key) per path
	for i, n := range nodes {
		rec := b.add(record(n.h))
		key := b.add(keyBlock(n.parent, path.Base(n.h.Name)))
		val := b.add(be32(n.id, rec))
		pairs[i] = [2]uint32{val, key}
	}
	leafIdx := []uint32{firstLeaf}
	for range leaves - 1 {
		leafIdx = append(leafIdx, b.add(nil))
	}
	var branch [][2]uint32
	for i, idx := range leafIdx {
		chunk := pairs[i*leafCapacity : min((i+1)*leafCapacity, len(pairs))]
		var fwd, back uint32
		if i+1 < len(leafIdx) {
			fwd = leafIdx[i+1]
		}
		if i > 0 {
			back = leafIdx[i-1]
		}
		b.set(idx, leaf(fwd, back, chunk, pathsBlockSize))
		branch = append(branch, [2]uint32{idx, chunk[len(chunk)-1][1]})
	}
	root := firstLeaf
	if len(leafIdx) > 1 {
		root = b.add(branchNode(branch))
	}
	b.set(pathsTree, tree(root, pathsBlockSize, uint32(len(nodes))))
	_, err := w.w.Write(b.file())
	return err
}

func bomInfo(nodes []node) []byte {
	var total uint32
	for _, n := range nodes {
		if t := n.h.Type(); t == TypeFile || t == TypeSymlink {
			total += n.h.Size
		}
	}
	return be32(1, uint32(len(nodes)+1), 1, 0, 0, total, 0)
}

func tree(child, blockSize, count uint32) []byte {
	return append(append([]byte(treeMagic), be32(1, child, blockSize, count)...), 0)
}

func vindex(treeBlock uint32) []byte { return append(be32(1, treeBlock, 0), 0) }

func leaf(forward, backward uint32, pairs [][2]uint32, size int) []byte {
	out := make([]byte, 12, size)
	binary.BigEndian.PutUint16(out[0:], 1)
	binary.BigEndian.PutUint16(out[2:], uint16(len(pairs)))
	binary.BigEndian.PutUint32(out[4:], forward)
	binary.BigEndian.PutUint32(out[8:], backward)
	for _, p := range pairs {
		out = append(out, be32(p[0], p[1])...)
	}
	return out[:size]
}

func branchNode(pairs [][2]uint32) []byte {
	out := leaf(0, 0, pairs, pathsBlockSize)
	binary.BigEndian.PutUint16(out[0:], 0)
	return out
}

func record(h *Header) []byte {
	var r bytes.Buffer
	r.WriteByte(h.Type())
	r.WriteByte(1)
	binary.Write(&r, binary.BigEndian, h.Arch)
	binary.Write(&r, binary.BigEndian, h.Mode)
	r.Write(be32(h.UID, h.GID, h.ModTime, h.Size))
	r.WriteByte(1)
	switch h.Type() {
	case TypeDir:
		r.Write(be32(0, 0))
	case TypeSymlink:
		r.Write(be32(h.Checksum, uint32(len(h.Linkname)+1)))
		r.WriteString(h.Linkname)
		r.Write(make([]byte, 1+8))
	default:
		r.Write(be32(h.Checksum, 0, 0))
	}
	return r.Bytes()
}

func keyBlock(parent uint32, name string) []byte {
	return append(append(be32(parent), name...), 0)
}

func be32(vs ...uint32) []byte {
	out := make([]byte, 4*len(vs))
	for i, v := range vs {
		binary.BigEndian.PutUint32(out[4*i:], v)
	}
	return out
}

// blocks is the block store being built; index 0 is the null block.
type blocks struct{ data [][]byte }

func (b *blocks) add(data []byte) uint32 {
	if len(b.data) == 0 {
		b.data = append(b.data, nil)
	}
	b.data = append(b.data, data)
	return uint32(len(b.data) - 1)
}

func (b *blocks) set(i uint32, data []byte) { b.data[i] = data }

var varNames = []struct {
	name  string
	block uint32
}{{"BomInfo", 1}, {"Paths", 2}, {"HLIndex", 4}, {"VIndex", 6}, {"Size64", 9}}

// file renders: the 512-byte header zone, the blocks in index order, the
// variables, then the dense block table with an empty free list.
func (b *blocks) file() []byte {
	out := make([]byte, headerZone)
	addrs := make([][2]uint32, len(b.data))
	for i, d := range b.data[1:] {
		addrs[i+1] = [2]uint32{uint32(len(out)), uint32(len(d))}
		out = append(out, d...)
	}
	varsOffset := uint32(len(out))
	out = append(out, be32(uint32(len(varNames)))...)
	for _, v := range varNames {
		out = append(out, be32(v.block)...)
		out = append(out, byte(len(v.name)))
		out = append(out, v.name...)
	}
	varsLength := uint32(len(out)) - varsOffset
	indexOffset := uint32(len(out))
	out = append(out, be32(uint32(len(addrs)))...)
	for _, a := range addrs {
		out = append(out, be32(a[0], a[1])...)
	}
	out = append(out, be32(0)...)
	out = append(out, make([]byte, 16)...)
	indexLength := uint32(len(out)) - indexOffset
	copy(out, magic)
	copy(out[8:], be32(1, uint32(len(b.data)-1), indexOffset, indexLength, varsOffset, varsLength))
	return out
}
