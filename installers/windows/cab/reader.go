package cab

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"sync"
)

// Reader reads a cabinet file that is complete in itself (no set
// spanning several cabinets). Folders may be uncompressed or MSZIP.
type Reader struct {
	r        io.ReaderAt
	folders  []folderInfo
	files    []*File
	reserved int // per-CFDATA reserve bytes

	mu   sync.Mutex
	idle map[uint16]*blockReader // per folder, parked by a finished file
}

type folderInfo struct {
	folder
	end int64 // bytes past dataAt the blocks may take: the cabinet's end
}

// File is one file of the cabinet.
type File struct {
	FileHeader
	cab    *Reader
	folder uint16
	offset uint32 // in the folder's uncompressed data
}

// Files lists the cabinet's files in stored order.
func (r *Reader) Files() []*File { return r.files }

// NewReader parses the header, folders and file entries of a cabinet of
// the given size. Block data is read and checked by File.Open.
func NewReader(r io.ReaderAt, size int64) (*Reader, error) {
	if size < headerSize {
		return nil, ErrNotCabinet
	}
	sr := io.NewSectionReader(r, 0, size)
	br := bufio.NewReader(sr)
	head := make([]byte, headerSize)
	if _, err := io.ReadFull(br, head); err != nil {
		return nil, err
	}
	h, err := parseHeader(head)
	if err != nil {
		return nil, err
	}
	if h.flags&(flagPrevCabinet|flagNextCabinet) != 0 {
		return nil, fmt.Errorf("%w: cabinet sets spanning several files", ErrUnsupported)
	}
	if int64(h.size) > size {
		return nil, corrupt("cbCabinet %d past the end of %d bytes", h.size, size)
	}
	cr := &Reader{r: r}
	folderReserve, err := cr.readReserve(br, h)
	if err != nil {
		return nil, err
	}
	if err := cr.readFolders(br, h, folderReserve, int64(h.size)); err != nil {
		return nil, err
	}
	if err := cr.readFiles(sr, h); err != nil {
		return nil, err
	}
	return cr, nil
}

// readReserve skips the optional reserve area and returns the reserve
// size of each CFFOLDER.
func (r *Reader) readReserve(br *bufio.Reader, h cabHeader) (int, error) {
	if h.flags&flagReserve == 0 {
		return 0, nil
	}
	var b [4]byte
	if _, err := io.ReadFull(br, b[:]); err != nil {
		return 0, corrupt("reserve sizes: %v", err)
	}
	r.reserved = int(b[3])
	if _, err := br.Discard(int(binary.LittleEndian.Uint16(b[:]))); err != nil {
		return 0, corrupt("header reserve: %v", err)
	}
	return int(b[2]), nil
}

func (r *Reader) readFolders(br *bufio.Reader, h cabHeader, reserve int, end int64) error {
	if h.folders == 0 && h.files > 0 {
		return corrupt("files without folders")
	}
	b := make([]byte, folderSize+reserve)
	for range h.folders {
		if _, err := io.ReadFull(br, b); err != nil {
			return corrupt("CFFOLDER: %v", err)
		}
		f := folder{
			dataAt:      binary.LittleEndian.Uint32(b),
			blocks:      binary.LittleEndian.Uint16(b[4:]),
			compression: binary.LittleEndian.Uint16(b[6:]),
		}
		if int64(f.dataAt) > end {
			return corrupt("CFDATA at %d past the end", f.dataAt)
		}
		r.folders = append(r.folders, folderInfo{folder: f, end: end})
	}
	return nil
}

func (r *Reader) readFiles(sr *io.SectionReader, h cabHeader) error {
	if _, err := sr.Seek(int64(h.filesAt), io.SeekStart); err != nil {
		return err
	}
	br := bufio.NewReader(sr)
	for range h.files {
		f, err := r.readFile(br)
		if err != nil {
			return err
		}
		r.files = append(r.files, f)
	}
	return nil
}

func (r *Reader) readFile(br *bufio.Reader) (*File, error) {
	b := make([]byte, fileEntrySize)
	if _, err := io.ReadFull(br, b); err != nil {
		return nil, corrupt("CFFILE: %v", err)
	}
	le := binary.LittleEndian
	f := &File{
		cab:    r,
		offset: le.Uint32(b[4:]),
		folder: le.Uint16(b[8:]),
		FileHeader: FileHeader{
			Size:       int64(le.Uint32(b)),
			Modified:   fromDOS(le.Uint16(b[10:]), le.Uint16(b[12:])),
			Attributes: le.Uint16(b[14:]),
		},
	}
	name, err := br.ReadSlice(0)
	if err != nil || len(name) > maxName+1 || len(name) < 2 {
		return nil, corrupt("CFFILE name")
	}
	f.Name = string(name[:len(name)-1])
	if int(f.folder) >= len(r.folders) {
		return nil, fmt.Errorf("%w: file %q in folder %#x (continued or missing)", ErrUnsupported, f.Name, f.folder)
	}
	limit := int64(r.folders[f.folder].blocks) * blockSize
	if int64(f.offset)+f.Size > limit {
		return nil, corrupt("file %q ends past its folder's %d blocks", f.Name, r.folders[f.folder].blocks)
	}
	return f, nil
}

// Open returns a reader of the file's bytes; it fails on a checksum
// mismatch. A folder is inflated from its first block, except that a
// file opened after the previous one was read to its end continues where
// that one stopped: extracting the files in stored order inflates each
// folder once.
func (f *File) Open() (io.Reader, error) {
	fo := f.cab.folders[f.folder]
	switch fo.compression & compressMask {
	case compressNone, compressMSZIP:
	default:
		return nil, fmt.Errorf("%w: compression type %d", ErrUnsupported, fo.compression&compressMask)
	}
	blocks := f.cab.takeIdle(f.folder, int64(f.offset))
	if blocks == nil {
		blocks = &blockReader{
			r:        bufio.NewReaderSize(io.NewSectionReader(f.cab.r, int64(fo.dataAt), fo.end-int64(fo.dataAt)), 64<<10),
			folder:   fo.folder,
			reserved: f.cab.reserved,
			dec:      newDecompressor(),
		}
	}
	if _, err := io.CopyN(io.Discard, blocks, int64(f.offset)-blocks.pos); err != nil {
		return nil, noEOF(err)
	}
	fr := &fileReader{cab: f.cab, folder: f.folder, blocks: blocks, left: f.Size}
	fr.giveBack()
	return fr, nil
}

// takeIdle hands out the folder's parked block reader if it has not yet
// passed offset.
func (r *Reader) takeIdle(folder uint16, offset int64) *blockReader {
	r.mu.Lock()
	defer r.mu.Unlock()
	b := r.idle[folder]
	if b == nil || b.pos > offset {
		return nil
	}
	delete(r.idle, folder)
	return b
}

func (r *Reader) park(folder uint16, b *blockReader) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.idle == nil {
		r.idle = map[uint16]*blockReader{}
	}
	r.idle[folder] = b
}

func noEOF(err error) error {
	if err == io.EOF {
		return corrupt("folder data ends early")
	}
	return err
}

// fileReader reads one file's bytes from its folder's blocks and parks
// the block reader once the file is complete.
type fileReader struct {
	cab    *Reader
	folder uint16
	blocks *blockReader
	left   int64
}

func (f *fileReader) Read(p []byte) (int, error) {
	if f.left == 0 {
		return 0, io.EOF
	}
	n, err := f.blocks.Read(p[:min(int64(len(p)), f.left)])
	f.left -= int64(n)
	if err == io.EOF {
		err = corrupt("folder data ends %d bytes early", f.left)
	}
	if err != nil {
		f.blocks = nil
		f.left = 0
		return n, err
	}
	f.giveBack()
	return n, nil
}

func (f *fileReader) giveBack() {
	if f.left == 0 && f.blocks != nil {
		f.cab.park(f.folder, f.blocks)
		f.blocks = nil
	}
}

// blockReader yields a folder's uncompressed data, block by block.
type blockReader struct {
	r        *bufio.Reader
	folder   folder
	reserved int
	dec      *decompressor
	read     int   // blocks read
	pos      int64 // uncompressed bytes delivered
	pending  []byte
	buf      []byte
}

func (b *blockReader) Read(p []byte) (int, error) {
	for len(b.pending) == 0 {
		if b.read == int(b.folder.blocks) {
			return 0, io.EOF
		}
		if err := b.next(); err != nil {
			return 0, err
		}
	}
	n := copy(p, b.pending)
	b.pending = b.pending[n:]
	b.pos += int64(n)
	return n, nil
}

func (b *blockReader) next() error {
	head := make([]byte, dataHeader)
	if _, err := io.ReadFull(b.r, head); err != nil {
		return corrupt("CFDATA %d header: %v", b.read, err)
	}
	if _, err := b.r.Discard(b.reserved); err != nil {
		return corrupt("CFDATA %d reserve: %v", b.read, err)
	}
	le := binary.LittleEndian
	sum, compressed, uncompressed := le.Uint32(head), le.Uint16(head[4:]), le.Uint16(head[6:])
	if compressed > maxCompressed || uncompressed > blockSize {
		return corrupt("CFDATA %d sizes %d/%d", b.read, compressed, uncompressed)
	}
	if cap(b.buf) < int(compressed) {
		b.buf = make([]byte, maxCompressed)
	}
	data := b.buf[:compressed]
	if _, err := io.ReadFull(b.r, data); err != nil {
		return corrupt("CFDATA %d data: %v", b.read, err)
	}
	if sum != 0 && sum != blockChecksum(data, compressed, uncompressed) {
		return fmt.Errorf("%w in block %d", ErrChecksum, b.read)
	}
	b.read++
	if b.folder.compression&compressMask == compressNone {
		if compressed != uncompressed {
			return corrupt("stored CFDATA %d sizes %d/%d", b.read-1, compressed, uncompressed)
		}
		b.pending = data
		return nil
	}
	out, err := b.dec.inflate(data, int(uncompressed))
	b.pending = out
	return err
}
