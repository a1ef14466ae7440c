package cab

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"time"
	"unicode/utf8"
)

// FileHeader describes one file of the cabinet.
type FileHeader struct {
	Name     string
	Size     int64
	Modified time.Time // an MS-DOS date and time of its own location; zero is 1980-01-01
	// Attributes are CFFILE attribs (0x20 archive, ...); AttrNameUTF8 is
	// added for names that are not ASCII.
	Attributes uint16
}

// Writer writes a cabinet with one MSZIP folder. Files are stored in the
// order they are created.
//
// CFHEADER needs the cabinet's total size before any data, so the
// compressed CFDATA blocks are spooled to a temporary file (os.CreateTemp,
// removed by Close) and copied to w at the end: memory stays flat however
// large the files are, and w need not seek.
type Writer struct {
	w       io.Writer
	files   []fileEntry
	current *fileWriter
	block   []byte // uncompressed bytes waiting for a full block
	offset  int64  // uncompressed bytes written so far
	spool   *spool
	closed  bool
	err     error
}

// NewWriter returns a Writer of an empty cabinet.
func NewWriter(w io.Writer) *Writer {
	return &Writer{w: w, block: make([]byte, 0, blockSize)}
}

// Create adds a file; the data written to the returned writer must be
// exactly h.Size bytes, before the next Create or Close.
func (w *Writer) Create(h FileHeader) (io.Writer, error) {
	if err := w.usable(); err != nil {
		return nil, err
	}
	if err := w.finishFile(); err != nil {
		return nil, err
	}
	entry, err := w.entryFor(h)
	if err != nil {
		return nil, err
	}
	w.files = append(w.files, entry)
	w.current = &fileWriter{w: w, name: h.Name, left: h.Size}
	return w.current, nil
}

func (w *Writer) usable() error {
	if w.closed {
		return ErrClosed
	}
	return w.err
}

func (w *Writer) entryFor(h FileHeader) (fileEntry, error) {
	if err := checkName(h.Name); err != nil {
		return fileEntry{}, err
	}
	if h.Size < 0 || h.Size > math.MaxUint32 || w.offset+h.Size > math.MaxUint32 {
		return fileEntry{}, fmt.Errorf("%w: %q of %d bytes", ErrTooLarge, h.Name, h.Size)
	}
	if len(w.files) == maxCount {
		return fileEntry{}, fmt.Errorf("%w: more than %d files", ErrTooLarge, maxCount)
	}
	date, clock, err := dosDateTime(h.Modified)
	if err != nil {
		return fileEntry{}, err
	}
	attributes := h.Attributes
	if !isASCII(h.Name) {
		attributes |= AttrNameUTF8
	}
	return fileEntry{
		size: uint32(h.Size), offset: uint32(w.offset),
		date: date, time: clock, attributes: attributes, name: h.Name,
	}, nil
}

func checkName(name string) error {
	switch {
	case name == "", len(name) > maxName, !utf8.ValidString(name), strings.ContainsRune(name, 0):
		return fmt.Errorf("%w: %q", ErrInvalidName, name)
	}
	return nil
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func (w *Writer) finishFile() error {
	if w.current == nil || w.current.left == 0 {
		return nil
	}
	w.err = fmt.Errorf("%w: %q is %d bytes short", ErrSize, w.current.name, w.current.left)
	return w.err
}

type fileWriter struct {
	w    *Writer
	name string
	left int64
}

func (f *fileWriter) Write(p []byte) (int, error) {
	if err := f.w.usable(); err != nil {
		return 0, err
	}
	if f != f.w.current {
		return 0, fmt.Errorf("cab: write to %q after the next Create", f.name)
	}
	if int64(len(p)) > f.left {
		f.w.err = fmt.Errorf("%w: %q is longer than its size", ErrSize, f.name)
		return 0, f.w.err
	}
	f.left -= int64(len(p))
	if err := f.w.writeData(p); err != nil {
		return 0, err
	}
	return len(p), nil
}

// writeData cuts the folder's data into 32 KiB blocks.
func (w *Writer) writeData(p []byte) error {
	w.offset += int64(len(p))
	for len(p) > 0 {
		n := min(len(p), blockSize-len(w.block))
		w.block = append(w.block, p[:n]...)
		p = p[n:]
		if len(w.block) == blockSize {
			if err := w.flushBlock(); err != nil {
				return err
			}
		}
	}
	return nil
}

// flushBlock hands the waiting bytes to the spool as one block.
func (w *Writer) flushBlock() error {
	if w.spool == nil {
		if w.spool, w.err = newSpool(); w.err != nil {
			return w.err
		}
	}
	w.block, w.err = w.spool.add(w.block)
	return w.err
}

// Close writes the cabinet: header, folder, file entries, then the
// spooled blocks. Call it also after an error: it removes the spool.
func (w *Writer) Close() error {
	if w.closed {
		return ErrClosed
	}
	err := w.finish()
	w.closed = true
	return errors.Join(err, w.removeSpool())
}

func (w *Writer) finish() error {
	if err := w.usable(); err != nil {
		return err
	}
	if err := w.finishFile(); err != nil {
		return err
	}
	if len(w.block) > 0 {
		if err := w.flushBlock(); err != nil {
			return err
		}
	}
	if w.spool != nil {
		if err := w.spool.finish(); err != nil {
			return err
		}
	}
	head, err := w.directory()
	if err != nil {
		return err
	}
	if _, err := w.w.Write(head); err != nil {
		return err
	}
	if w.spool == nil {
		return nil
	}
	return w.spool.copyTo(w.w)
}

// directory is everything before the first CFDATA block.
func (w *Writer) directory() ([]byte, error) {
	var entries []byte
	for _, f := range w.files {
		entries = append(entries, f.marshal()...)
	}
	filesAt := int64(headerSize + folderSize)
	dataAt := filesAt + int64(len(entries))
	var blocks int
	var spooled int64
	if w.spool != nil {
		blocks, spooled = w.spool.blocks, w.spool.size
	}
	total := dataAt + spooled
	if total > math.MaxUint32 {
		return nil, fmt.Errorf("%w: %d bytes", ErrTooLarge, total)
	}
	h := cabHeader{size: uint32(total), filesAt: uint32(filesAt), folders: 1, files: uint16(len(w.files))}
	fo := folder{dataAt: uint32(dataAt), blocks: uint16(blocks), compression: compressMSZIP}
	out := append(h.marshal(), fo.marshal()...)
	return append(out, entries...), nil
}

func (w *Writer) removeSpool() error {
	if w.spool == nil {
		return nil
	}
	err := w.spool.remove()
	w.spool = nil
	return err
}
