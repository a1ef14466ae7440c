package cfb

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"unicode/utf16"
)

// Stream names a stream of the root storage and gives its size.
type Stream struct {
	Name string
	Size int64
}

// Reader reads the root-storage streams of a compound file. NewReader
// checks every chain it will follow, so Open never meets a loop or an
// out-of-range sector.
type Reader struct {
	r          io.ReaderAt
	sectorSize int64
	clsid      [16]byte
	miniChain  []uint32 // regular sectors holding the mini stream
	streams    []Stream
	chains     map[string]streamChain
}

type streamChain struct {
	size    int64
	mini    bool
	sectors []uint32 // mini or regular sector numbers
}

// NewReader parses the header, FAT, DIFAT, directory and mini FAT of a
// compound file of the given size.
func NewReader(r io.ReaderAt, size int64) (*Reader, error) {
	buf := make([]byte, headerSize)
	if size < headerSize {
		return nil, ErrNotCompoundFile
	}
	if _, err := r.ReadAt(buf, 0); err != nil {
		return nil, err
	}
	h, err := parseHeader(buf)
	if err != nil {
		return nil, err
	}
	p := &parser{r: r, h: h, sectorSize: int64(1) << h.sectorShift}
	if size > p.sectorSize {
		p.numSectors = uint32(min(ceilDiv64(size-p.sectorSize, p.sectorSize), maxRegSect))
	}
	p.used = make([]bool, p.numSectors)
	return p.parse()
}

// RootCLSID is the class id of the root storage.
func (r *Reader) RootCLSID() [16]byte { return r.clsid }

// Streams lists the root storage's streams, sorted by name.
func (r *Reader) Streams() []Stream { return slices.Clone(r.streams) }

// ErrNotExist is returned by Open for a name the root storage lacks.
var ErrNotExist = errors.New("cfb: no such stream")

// Open returns a reader of the named root stream's bytes.
func (r *Reader) Open(name string) (io.Reader, error) {
	c, ok := r.chains[name]
	if !ok {
		return nil, ErrNotExist
	}
	return &streamReader{file: r, chain: c}, nil
}

// unitOffset is the file offset of unit i of a chain (a mini sector of
// the mini stream, or a regular sector).
func (r *Reader) unitOffset(c streamChain, i int64) (offset, unit int64) {
	if !c.mini {
		return sectorOffset(c.sectors[i], r.sectorSize), r.sectorSize
	}
	pos := int64(c.sectors[i]) * miniSectorSize
	host := r.miniChain[pos/r.sectorSize]
	return sectorOffset(host, r.sectorSize) + pos%r.sectorSize, miniSectorSize
}

type streamReader struct {
	file  *Reader
	chain streamChain
	pos   int64
}

func (s *streamReader) Read(p []byte) (int, error) {
	if s.pos >= s.chain.size {
		return 0, io.EOF
	}
	unitSize := int64(miniSectorSize)
	if !s.chain.mini {
		unitSize = s.file.sectorSize
	}
	first := s.pos / unitSize
	offset, unit := s.file.unitOffset(s.chain, first)
	within := s.pos % unit
	n := min(int64(len(p)), unit-within, s.chain.size-s.pos)
	if !s.chain.mini {
		want := ceilDiv64(within+int64(len(p)), unit)
		n = min(int64(len(p)), s.contiguous(first, want)*unit-within, s.chain.size-s.pos)
	}
	m, err := s.file.r.ReadAt(p[:n], offset+within)
	s.pos += int64(m)
	if m == int(n) {
		return m, nil
	}
	if err == io.EOF || err == nil {
		err = corrupt("stream data past the end of the file")
	}
	return m, err
}

// contiguous counts, up to most, the sectors from index i on that follow
// each other in the file, so one ReadAt can cover them.
func (s *streamReader) contiguous(i, most int64) int64 {
	sectors := s.chain.sectors
	n := int64(1)
	for n < most && i+n < int64(len(sectors)) && sectors[i+n] == sectors[i]+uint32(n) {
		n++
	}
	return n
}

// parser holds the state NewReader needs and the Reader does not keep.
type parser struct {
	r          io.ReaderAt
	h          *header
	sectorSize int64
	numSectors uint32
	used       []bool // regular sectors already claimed by a chain
	fat        []uint32
	entries    []dirEntry
	entryErrs  []error
}

func (p *parser) parse() (*Reader, error) {
	if err := p.readFAT(); err != nil {
		return nil, err
	}
	dir, err := p.chain(p.h.firstDirSector, p.fat, p.used)
	if err != nil {
		return nil, err
	}
	if len(dir) == 0 {
		return nil, corrupt("empty directory")
	}
	if err := p.readDirectory(dir); err != nil {
		return nil, err
	}
	root := p.entries[0]
	if p.entryErrs[0] != nil || root.objectType != typeRoot {
		return nil, corrupt("first directory entry is not the root")
	}
	out := &Reader{r: p.r, sectorSize: p.sectorSize, clsid: root.clsid, chains: map[string]streamChain{}}
	miniFAT, err := p.readMini(out, root)
	if err != nil {
		return nil, err
	}
	if err := p.collectStreams(out, root, miniFAT); err != nil {
		return nil, err
	}
	slices.SortFunc(out.streams, func(a, b Stream) int { return cmp.Compare(a.Name, b.Name) })
	return out, nil
}

func (p *parser) readSector(n uint32) ([]byte, error) {
	if n >= p.numSectors {
		return nil, corrupt("sector %d past the end of the file", n)
	}
	b := make([]byte, p.sectorSize)
	m, err := p.r.ReadAt(b, sectorOffset(n, p.sectorSize))
	if m == len(b) {
		return b, nil
	}
	if err == io.EOF || err == nil {
		err = corrupt("sector %d cut short", n)
	}
	return nil, err
}

// readFAT gathers the FAT sector numbers from the header and the DIFAT
// chain, then reads the FAT. FAT and DIFAT sectors are claimed, so no
// stream chain may run through them.
func (p *parser) readFAT() error {
	if p.h.numFATSectors > p.numSectors {
		return corrupt("%d FAT sectors in a file of %d sectors", p.h.numFATSectors, p.numSectors)
	}
	want := int(p.h.numFATSectors)
	sectors := make([]uint32, 0, want)
	for i := 0; i < headerDIFAT && len(sectors) < want; i++ {
		sectors = append(sectors, p.h.difat[i])
	}
	perDIFAT := int(p.sectorSize/4) - 1
	for next := p.h.firstDIFAT; len(sectors) < want; {
		if next == endOfChain || next == freeSect {
			return corrupt("DIFAT lists %d of %d FAT sectors", len(sectors), want)
		}
		b, err := p.claim(next)
		if err != nil {
			return err
		}
		for k := 0; k < perDIFAT && len(sectors) < want; k++ {
			sectors = append(sectors, binary.LittleEndian.Uint32(b[4*k:]))
		}
		next = binary.LittleEndian.Uint32(b[4*perDIFAT:])
	}
	p.fat = make([]uint32, 0, want*int(p.sectorSize/4))
	for _, s := range sectors {
		b, err := p.claim(s)
		if err != nil {
			return err
		}
		p.fat = appendEntries(p.fat, b)
	}
	return nil
}

// claim reads a sector that belongs to exactly one structure.
func (p *parser) claim(n uint32) ([]byte, error) {
	if n < p.numSectors && p.used[n] {
		return nil, corrupt("sector %d used twice", n)
	}
	b, err := p.readSector(n)
	if err != nil {
		return nil, err
	}
	p.used[n] = true
	return b, nil
}

func appendEntries(table []uint32, b []byte) []uint32 {
	for i := 0; i+4 <= len(b); i += 4 {
		table = append(table, binary.LittleEndian.Uint32(b[i:]))
	}
	return table
}

// chain follows a chain through table from start. Every sector may
// appear in one chain only (used), which rules out loops and bounds the
// walk by the table's length.
func (p *parser) chain(start uint32, table []uint32, used []bool) ([]uint32, error) {
	var sectors []uint32
	for s := start; s != endOfChain; s = table[s] {
		if int64(s) >= int64(len(table)) || int64(s) >= int64(len(used)) {
			return nil, corrupt("chain reaches sector %#x out of range", s)
		}
		if used[s] {
			return nil, corrupt("chain reaches sector %d twice", s)
		}
		used[s] = true
		sectors = append(sectors, s)
	}
	return sectors, nil
}

func (p *parser) readDirectory(dir []uint32) error {
	perSector := int(p.sectorSize / dirEntrySize)
	for _, s := range dir {
		b, err := p.readSector(s)
		if err != nil {
			return err
		}
		for i := 0; i < perSector; i++ {
			e, err := parseDirEntry(b[i*dirEntrySize:], p.h.majorVersion)
			p.entries = append(p.entries, e)
			p.entryErrs = append(p.entryErrs, err)
		}
	}
	return nil
}

// readMini reads the mini stream's chain and the mini FAT.
func (p *parser) readMini(out *Reader, root dirEntry) ([]uint32, error) {
	if root.size > uint64(p.numSectors)*uint64(p.sectorSize) {
		return nil, corrupt("mini stream of %d bytes in a smaller file", root.size)
	}
	if root.size > 0 {
		chain, err := p.chain(root.start, p.fat, p.used)
		if err != nil {
			return nil, err
		}
		if int64(len(chain))*p.sectorSize < int64(root.size) {
			return nil, corrupt("mini stream chain shorter than its size")
		}
		out.miniChain = chain
	}
	if p.h.numMiniFAT == 0 || p.h.firstMiniFAT == endOfChain {
		return nil, nil
	}
	sectors, err := p.chain(p.h.firstMiniFAT, p.fat, p.used)
	if err != nil {
		return nil, err
	}
	var miniFAT []uint32
	for _, s := range sectors {
		b, err := p.readSector(s)
		if err != nil {
			return nil, err
		}
		miniFAT = appendEntries(miniFAT, b)
	}
	miniSectors := int(root.size / miniSectorSize)
	return miniFAT[:min(len(miniFAT), miniSectors)], nil
}

// collectStreams walks the root's sibling tree and checks every stream's
// chain. Storages are skipped, with their contents.
func (p *parser) collectStreams(out *Reader, root dirEntry, miniFAT []uint32) error {
	seen := make([]bool, len(p.entries))
	seen[0] = true
	ids, err := walkSiblings(p.entries, root.child, seen)
	if err != nil {
		return err
	}
	usedMini := make([]bool, len(miniFAT))
	for _, id := range ids {
		e := p.entries[id]
		if p.entryErrs[id] != nil {
			return p.entryErrs[id]
		}
		switch e.objectType {
		case typeStorage:
			continue
		case typeStream:
		default:
			return corrupt("directory entry %d of type %d in the tree", id, e.objectType)
		}
		name := string(utf16.Decode(e.name))
		c, err := p.streamChain(e, miniFAT, usedMini)
		if err != nil {
			return fmt.Errorf("stream %q: %w", name, err)
		}
		if _, dup := out.chains[name]; dup {
			return corrupt("stream %q listed twice", name)
		}
		out.chains[name] = c
		out.streams = append(out.streams, Stream{Name: name, Size: c.size})
	}
	return nil
}

func (p *parser) streamChain(e dirEntry, miniFAT []uint32, usedMini []bool) (streamChain, error) {
	c := streamChain{size: int64(e.size), mini: e.size < miniCutoff}
	if c.size < 0 || e.size > uint64(p.numSectors)*uint64(p.sectorSize) {
		return c, corrupt("stream of %d bytes in a smaller file", e.size)
	}
	if c.size == 0 {
		return c, nil
	}
	var err error
	unit := p.sectorSize
	if c.mini {
		unit = miniSectorSize
		c.sectors, err = p.chain(e.start, miniFAT, usedMini)
	} else {
		c.sectors, err = p.chain(e.start, p.fat, p.used)
	}
	if err != nil {
		return c, err
	}
	if int64(len(c.sectors))*unit < c.size {
		return c, corrupt("stream chain shorter than its size %d", c.size)
	}
	return c, nil
}
