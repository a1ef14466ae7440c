package cpio

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
)

// MaxNameLen bounds an entry name; odc allows up to 0777777 bytes, which no
// payload needs.
const MaxNameLen = 4096

// MaxLinkLen bounds a symlink target.
const MaxLinkLen = 4096

// Reader reads an odc archive.
type Reader struct {
	r       io.Reader
	current io.Reader // the unread rest of the current entry
	done    bool
}

// NewReader reads from r.
func NewReader(r io.Reader) *Reader { return &Reader{r: r, current: bytes.NewReader(nil)} }

// Next skips to the next entry and returns its header; io.EOF after the
// trailer.
func (r *Reader) Next() (*Header, error) {
	if r.done {
		return nil, io.EOF
	}
	if _, err := io.Copy(io.Discard, r.current); err != nil {
		return nil, err
	}
	raw := make([]byte, headerLen)
	if _, err := io.ReadFull(r.r, raw); err != nil {
		return nil, unexpected(err)
	}
	h, nameLen, size, err := decodeHeader(raw)
	if err != nil {
		return nil, err
	}
	name := make([]byte, nameLen)
	if _, err := io.ReadFull(r.r, name); err != nil {
		return nil, unexpected(err)
	}
	if name[nameLen-1] != 0 {
		return nil, fmt.Errorf("%w: name not NUL-terminated", ErrHeader)
	}
	h.Name = string(name[:nameLen-1])
	if h.Name == trailer {
		r.done = true
		return nil, io.EOF
	}
	if h.IsSymlink() {
		if size > MaxLinkLen {
			return nil, fmt.Errorf("%w: symlink target of %d bytes", ErrHeader, size)
		}
		target := make([]byte, size)
		if _, err := io.ReadFull(r.r, target); err != nil {
			return nil, unexpected(err)
		}
		h.Linkname = string(target)
		r.current = bytes.NewReader(nil)
		return h, nil
	}
	h.Size = size
	r.current = io.LimitReader(r.r, size)
	return h, nil
}

// Read reads the current entry's data.
func (r *Reader) Read(p []byte) (int, error) {
	n, err := r.current.Read(p)
	if err == io.EOF {
		if lr, ok := r.current.(*io.LimitedReader); ok && lr.N > 0 {
			return n, io.ErrUnexpectedEOF
		}
	}
	return n, err
}

func decodeHeader(raw []byte) (*Header, int, int64, error) {
	if string(raw[:6]) != Magic {
		return nil, 0, 0, fmt.Errorf("%w: bad magic %q", ErrHeader, raw[:6])
	}
	widths := []int{6, 6, 6, 6, 6, 6, 6, 11, 6, 11}
	vals := make([]int64, len(widths))
	off := 6
	for i, w := range widths {
		v, err := strconv.ParseInt(string(raw[off:off+w]), 8, 64)
		if err != nil || v < 0 {
			return nil, 0, 0, fmt.Errorf("%w: field %d is not octal", ErrHeader, i)
		}
		vals[i] = v
		off += w
	}
	nameLen, size := vals[8], vals[9]
	if nameLen < 1 || nameLen > MaxNameLen {
		return nil, 0, 0, fmt.Errorf("%w: name length %d", ErrHeader, nameLen)
	}
	h := &Header{Ino: vals[1], Mode: vals[2], UID: vals[3], GID: vals[4], NLink: vals[5], ModTime: vals[7]}
	return h, int(nameLen), size, nil
}

func unexpected(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}
