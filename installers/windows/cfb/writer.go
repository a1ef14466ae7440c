package cfb

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"unicode/utf16"
	"unicode/utf8"
)

// MaxStreamSize is the largest stream a version 3 file holds.
const MaxStreamSize = 1<<31 - 1

// Errors Add returns.
var (
	ErrDuplicateName = errors.New("cfb: duplicate stream name")
	ErrNameTooLong   = errors.New("cfb: stream name longer than 31 UTF-16 units")
	ErrInvalidName   = errors.New("cfb: invalid stream name")
	ErrInvalidSize   = errors.New("cfb: invalid stream size")
	ErrClosed        = errors.New("cfb: writer closed")
)

// Writer writes a compound file whose root storage holds the added
// streams. Nothing is written before Close, which lays the file out and
// writes it front to back, so w need not seek.
type Writer struct {
	w       io.Writer
	clsid   [16]byte
	streams []pendingStream
	names   map[string]bool
	closed  bool
}

type pendingStream struct {
	name []uint16
	size int64
	r    io.Reader
}

// NewWriter returns a Writer of an empty root storage with a zero CLSID.
func NewWriter(w io.Writer) *Writer {
	return &Writer{w: w, names: map[string]bool{}}
}

// SetRootCLSID sets the class id of the root storage (for an installation
// package, {000C1084-0000-0000-C000-000000000046} in binary layout).
func (w *Writer) SetRootCLSID(clsid [16]byte) { w.clsid = clsid }

// Add registers a stream in the root storage. name is the decoded UTF-16
// name; size is exact; r is read only during Close, in layout order.
func (w *Writer) Add(name string, size int64, r io.Reader) error {
	if w.closed {
		return ErrClosed
	}
	units, err := encodeName(name)
	if err != nil {
		return err
	}
	if size < 0 || size > MaxStreamSize {
		return fmt.Errorf("%w: %q has size %d", ErrInvalidSize, name, size)
	}
	key := foldKey(units)
	if w.names[key] {
		return fmt.Errorf("%w: %q", ErrDuplicateName, name)
	}
	w.names[key] = true
	w.streams = append(w.streams, pendingStream{name: units, size: size, r: r})
	return nil
}

// encodeName checks a name against [MS-CFB] 2.6.1: 1 to 31 UTF-16 units,
// none of them NUL, '/', '\', ':' or '!'.
func encodeName(name string) ([]uint16, error) {
	if name == "" || !utf8.ValidString(name) {
		return nil, fmt.Errorf("%w: %q", ErrInvalidName, name)
	}
	for _, c := range name {
		switch c {
		case 0, '/', '\\', ':', '!':
			return nil, fmt.Errorf("%w: %q holds %q", ErrInvalidName, name, c)
		}
	}
	units := utf16.Encode([]rune(name))
	if len(units) > maxNameLen {
		return nil, fmt.Errorf("%w: %q", ErrNameTooLong, name)
	}
	return units, nil
}

// foldKey is equal for two names exactly when compareNames says they are
// equal, so it finds names the sibling tree could not tell apart.
func foldKey(units []uint16) string {
	folded := make([]rune, len(units))
	for i, u := range units {
		folded[i] = rune(upper(u))
	}
	return string(folded)
}

// Close lays the file out and writes it. It reads every stream's reader
// once, in layout order (streams of 4096 bytes or more, then the smaller
// ones, each group in directory order), and fails if one yields more or
// fewer bytes than its size. Big streams are copied straight to w.
func (w *Writer) Close() error {
	if w.closed {
		return ErrClosed
	}
	w.closed = true
	streams := slices.Clone(w.streams)
	slices.SortFunc(streams, func(a, b pendingStream) int { return compareNames(a.name, b.name) })
	sizes := make([]int64, len(streams))
	var miniBytes int64
	for i, s := range streams {
		sizes[i] = s.size
		if s.size < miniCutoff {
			miniBytes += roundUp(s.size, miniSectorSize)
		}
	}
	l, err := planLayout(sizes, miniBytes)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w.w, 64<<10)
	fw := &fileWriter{w: bw}
	fw.write(l.header().marshal())
	w.writeRegular(fw, streams)
	w.writeMini(fw, streams)
	fw.writeMiniFAT(streams)
	fw.write(w.directory(streams, l))
	fw.writeFAT(l)
	fw.writeDIFAT(l)
	if fw.err != nil {
		return fw.err
	}
	return bw.Flush()
}

func (w *Writer) writeRegular(fw *fileWriter, streams []pendingStream) {
	for _, s := range streams {
		if s.size >= miniCutoff {
			fw.copyStream(s)
			fw.pad(sectorSize)
		}
	}
}

func (w *Writer) writeMini(fw *fileWriter, streams []pendingStream) {
	for _, s := range streams {
		if s.size < miniCutoff {
			fw.copyStream(s)
			fw.pad(miniSectorSize)
		}
	}
	fw.pad(sectorSize)
}

// directory builds the directory sectors: the root, then the streams in
// sorted order as one balanced all-black tree, then unused entries up to
// a whole sector.
func (w *Writer) directory(streams []pendingStream, l *layout) []byte {
	entries := make([]dirEntry, 1, len(streams)+1)
	entries[0] = dirEntry{
		name:       utf16.Encode([]rune(rootName)),
		objectType: typeRoot,
		color:      colorBlack,
		left:       noStream,
		right:      noStream,
		clsid:      w.clsid,
		start:      l.miniStream.first(),
		size:       uint64(l.miniSectors) * miniSectorSize,
	}
	regular, mini := 0, uint32(0)
	for _, s := range streams {
		e := dirEntry{name: s.name, objectType: typeStream, color: colorBlack, child: noStream, size: uint64(s.size)}
		switch {
		case s.size >= miniCutoff:
			e.start = l.regular[regular].start
			regular++
		case s.size == 0:
			e.start = endOfChain
		default:
			e.start = mini
			mini += uint32(ceilDiv64(s.size, miniSectorSize))
		}
		entries = append(entries, e)
	}
	entries[0].child = balance(entries, 1, len(entries))
	for len(entries)%entriesPerDir != 0 {
		entries = append(entries, unusedEntry())
	}
	b := make([]byte, len(entries)*dirEntrySize)
	for i := range entries {
		entries[i].marshal(b[i*dirEntrySize:])
	}
	return b
}

func (l *layout) header() *header {
	h := &header{
		majorVersion:    majorVersion,
		sectorShift:     sectorShift,
		miniSectorShift: miniSectorShift,
		numFATSectors:   l.fat.count,
		firstDirSector:  l.directory.start,
		miniCutoff:      miniCutoff,
		firstMiniFAT:    l.miniFAT.first(),
		numMiniFAT:      l.miniFAT.count,
		firstDIFAT:      l.difat.first(),
		numDIFAT:        l.difat.count,
	}
	for i := range h.difat {
		h.difat[i] = freeSect
		if uint32(i) < l.fat.count {
			h.difat[i] = l.fat.start + uint32(i)
		}
	}
	return h
}

func roundUp(n, to int64) int64 { return ceilDiv64(n, to) * to }

// fileWriter writes sequentially, counts bytes for padding and keeps the
// first error.
type fileWriter struct {
	w   io.Writer
	n   int64
	err error
}

func (fw *fileWriter) write(b []byte) {
	if fw.err != nil {
		return
	}
	n, err := fw.w.Write(b)
	fw.n += int64(n)
	fw.err = err
}

var zeros [sectorSize]byte

// pad writes zeros up to the next multiple of to, counted from the end of
// the header.
func (fw *fileWriter) pad(to int64) {
	body := fw.n - headerSize
	fw.write(zeros[:roundUp(body, to)-body])
}

func (fw *fileWriter) copyStream(s pendingStream) {
	if fw.err != nil {
		return
	}
	name := string(utf16.Decode(s.name))
	n, err := io.CopyN(fw.w, s.r, s.size)
	fw.n += n
	if err == io.EOF {
		err = fmt.Errorf("%w: stream %q gave %d of %d bytes", ErrInvalidSize, name, n, s.size)
	}
	if err != nil {
		fw.err = err
		return
	}
	var probe [1]byte
	if m, _ := io.ReadFull(s.r, probe[:]); m > 0 {
		fw.err = fmt.Errorf("%w: stream %q is longer than %d bytes", ErrInvalidSize, name, s.size)
	}
}

func (fw *fileWriter) writeMiniFAT(streams []pendingStream) {
	var runs []run
	var next uint32
	for _, s := range streams {
		if s.size > 0 && s.size < miniCutoff {
			count := uint32(ceilDiv64(s.size, miniSectorSize))
			runs = append(runs, run{start: next, count: count})
			next += count
		}
	}
	fw.writeTable(runs, next)
}

func (fw *fileWriter) writeFAT(l *layout) {
	fw.writeTable(l.runs(), l.total)
}

// writeTable writes FAT entries for the runs and pads with free entries
// to a whole sector.
func (fw *fileWriter) writeTable(runs []run, total uint32) {
	if total == 0 {
		return
	}
	var buf [4]byte
	fw.err = errors.Join(fw.err, fatEntries(runs, total, func(v uint32) error {
		binary.LittleEndian.PutUint32(buf[:], v)
		fw.write(buf[:])
		return fw.err
	}))
	for binary.LittleEndian.PutUint32(buf[:], freeSect); (fw.n-headerSize)%sectorSize != 0 && fw.err == nil; {
		fw.write(buf[:])
	}
}

// writeDIFAT writes the FAT sector numbers the header has no room for.
func (fw *fileWriter) writeDIFAT(l *layout) {
	b := make([]byte, sectorSize)
	for j := uint32(0); j < l.difat.count; j++ {
		for k := uint32(0); k < entriesPerDIFAT; k++ {
			v := uint32(freeSect)
			if i := headerDIFAT + j*entriesPerDIFAT + k; i < l.fat.count {
				v = l.fat.start + i
			}
			binary.LittleEndian.PutUint32(b[4*k:], v)
		}
		next := uint32(endOfChain)
		if j+1 < l.difat.count {
			next = l.difat.start + j + 1
		}
		binary.LittleEndian.PutUint32(b[4*entriesPerDIFAT:], next)
		fw.write(b)
	}
}
