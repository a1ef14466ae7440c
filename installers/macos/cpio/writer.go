package cpio

import (
	"fmt"
	"io"
)

// Writer writes an odc archive.
type Writer struct {
	w         io.Writer
	written   int64 // bytes of archive so far, for the final padding
	remaining int64 // bytes still owed to the current entry
	err       error
}

// NewWriter writes to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// WriteHeader starts an entry. For a symlink the target is written here
// and no Write may follow; for a regular file, exactly h.Size bytes of
// Write must follow.
func (w *Writer) WriteHeader(h *Header) error {
	if err := w.finishEntry(); err != nil {
		return err
	}
	size := h.Size
	if h.IsSymlink() {
		size = int64(len(h.Linkname))
	}
	hdr, err := encodeHeader(h, size)
	if err != nil {
		return err
	}
	if err := w.emit(hdr); err != nil {
		return err
	}
	if h.IsSymlink() {
		return w.emit([]byte(h.Linkname))
	}
	if !h.IsDir() {
		w.remaining = size
	}
	return nil
}

func encodeHeader(h *Header, size int64) ([]byte, error) {
	name := []byte(h.Name + "\x00")
	fields := []struct {
		v     int64
		width int
	}{
		{0, 6}, {h.Ino, 6}, {h.Mode, 6}, {h.UID, 6}, {h.GID, 6}, {h.NLink, 6}, {0, 6},
		{h.ModTime, 11}, {int64(len(name)), 6}, {size, 11},
	}
	out := make([]byte, 0, headerLen+len(name))
	out = append(out, Magic...)
	for _, f := range fields {
		limit := int64(maxSix)
		if f.width == 11 {
			limit = maxEleven
		}
		if f.v < 0 || f.v > limit {
			return nil, fmt.Errorf("%w: %d in %s", ErrFieldTooLarge, f.v, h.Name)
		}
		out = fmt.Appendf(out, "%0*o", f.width, f.v)
	}
	return append(out, name...), nil
}

// Write writes the current entry's data.
func (w *Writer) Write(p []byte) (int, error) {
	if int64(len(p)) > w.remaining {
		return 0, ErrWriteTooLong
	}
	if err := w.emit(p); err != nil {
		return 0, err
	}
	w.remaining -= int64(len(p))
	return len(p), nil
}

func (w *Writer) emit(p []byte) error {
	if w.err != nil {
		return w.err
	}
	n, err := w.w.Write(p)
	w.written += int64(n)
	w.err = err
	return err
}

func (w *Writer) finishEntry() error {
	if w.remaining != 0 {
		return ErrShortWrite
	}
	return w.err
}

// Close writes the trailer entry and pads the archive to 512 bytes. It
// does not close the underlying writer.
func (w *Writer) Close() error {
	if err := w.WriteHeader(&Header{Name: trailer, NLink: 1}); err != nil {
		return err
	}
	if pad := (blockSize - w.written%blockSize) % blockSize; pad > 0 {
		return w.emit(make([]byte, pad))
	}
	return w.err
}
