package fleet

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// Bounds on one record, so that no input (a field of gigabytes, a quote
// that never closes, a million columns) can make the reader hold more
// than about MaxRecordBytes at a time.
const (
	// MaxRecordBytes is the longest record read; a longer one is counted
	// unreadable, one per physical line it spans.
	MaxRecordBytes = 64 << 10
	// maxRecordLines is how many physical lines a quoted field may join.
	maxRecordLines = 64
)

// records splits a stream into records: physical lines, or, when quoted
// is set, lines joined while a CSV quote is open.
type records struct {
	br     *bufio.Reader
	buf    []byte
	quoted bool
}

func newRecords(r io.Reader) *records {
	return &records{br: bufio.NewReaderSize(r, 16<<10)}
}

// record is one record; over says it broke a bound and rec is nil.
type record struct {
	rec   []byte
	lines int
	over  bool
}

// next returns the next record, or io.EOF after the last.
func (r *records) next() (record, error) {
	r.buf = r.buf[:0]
	var out record
	open := false
	for {
		n, over, err := r.line()
		if n == 0 && err != nil && out.lines == 0 {
			return record{}, err
		}
		out.lines++
		out.over = out.over || over
		if !over {
			open = open != (bytes.Count(r.buf[len(r.buf)-n:], quote)%2 == 1)
		}
		done := !r.quoted || !open || out.over || out.lines >= maxRecordLines || err != nil
		if done {
			if out.over || (r.quoted && open && err == nil) {
				return record{lines: out.lines, over: true}, nil
			}
			out.rec = trimEOL(r.buf)
			return out, nil
		}
	}
}

var quote = []byte{'"'}

// line appends one physical line to r.buf and returns its length. A line
// that would take the record past MaxRecordBytes is read to its end but
// not kept.
func (r *records) line() (n int, over bool, err error) {
	start := len(r.buf)
	for {
		chunk, err := r.br.ReadSlice('\n')
		if !over && len(r.buf)+len(chunk) > MaxRecordBytes {
			over = true
			r.buf = r.buf[:start]
		}
		if !over {
			r.buf = append(r.buf, chunk...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if over {
			return len(chunk), true, err
		}
		return len(r.buf) - start, false, err
	}
}

func trimEOL(b []byte) []byte {
	b = bytes.TrimSuffix(b, []byte{'\n'})
	return bytes.TrimSuffix(b, []byte{'\r'})
}
