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
	// MaxRecordBytes is the longest record read; a longer line is counted
	// unreadable.
	MaxRecordBytes = 64 << 10
	// maxRecordLines is how many physical lines a quoted field may join.
	maxRecordLines = 64
)

// records splits a stream into records: physical lines, or, when quoted
// is set, lines joined while a CSV quote is open. A quote still open
// after maxRecordLines lines, at the end of the input, or in a record
// over MaxRecordBytes, was a stray quote: its lines are then given back one by one, so that one bad
// row costs one row.
type records struct {
	br      *bufio.Reader
	buf     []byte
	held    []byte
	pending []record
	quoted  bool
}

func newRecords(r io.Reader) *records {
	return &records{br: bufio.NewReaderSize(r, 16<<10)}
}

// record is one record; over says it broke a bound and rec is nil.
type record struct {
	rec  []byte
	over bool
}

// next returns the next record, or io.EOF after the last.
func (r *records) next() (record, error) {
	if len(r.pending) > 0 {
		rec := r.pending[0]
		r.pending = r.pending[1:]
		return rec, nil
	}
	r.buf = r.buf[:0]
	var starts []int
	open := false
	for {
		start := len(r.buf)
		n, over, err := r.line()
		switch {
		case n == 0 && err != nil && len(starts) == 0:
			return record{}, err
		case n == 0 && err != nil:
			// The input ends inside quotes: the quote was stray.
			return r.split(starts, false), nil
		case over:
			return r.split(starts, true), nil
		}
		starts = append(starts, start)
		open = open != (bytes.Count(r.buf[start:], quote)%2 == 1)
		if !r.quoted || !open {
			return record{rec: trimEOL(r.buf)}, nil
		}
		if err != nil {
			return r.split(starts, false), nil
		}
		if len(starts) >= maxRecordLines {
			return r.split(starts, false), nil
		}
	}
}

var quote = []byte{'"'}

// split gives the lines read so far back as records of their own, then,
// when the last line broke the size bound, that line as unreadable.
func (r *records) split(starts []int, overLast bool) record {
	r.held = append(r.held[:0], r.buf...)
	var out []record
	for i, s := range starts {
		end := len(r.held)
		if i+1 < len(starts) {
			end = starts[i+1]
		}
		out = append(out, record{rec: trimEOL(r.held[s:end])})
	}
	if overLast {
		out = append(out, record{over: true})
	}
	r.pending = out[1:]
	return out[0]
}

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
		n += len(chunk)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return n, over, err
	}
}

func trimEOL(b []byte) []byte {
	b = bytes.TrimSuffix(b, []byte{'\n'})
	return bytes.TrimSuffix(b, []byte{'\r'})
}
