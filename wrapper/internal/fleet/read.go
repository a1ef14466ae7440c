package fleet

import (
	"bytes"
	"errors"
	"io"
)

// ErrNoColumn is returned when the column asked for is not in the header.
var ErrNoColumn = errors.New("no column of that name in the header")

// sampleRows is how many rows are looked at to find the column that holds
// result lines, when the header does not name a known column.
const sampleRows = 32

// Read reads one input into the tally. column names the CSV column to
// read; empty lets Read choose. It streams: memory stays bounded whatever
// the input's size.
func (t *Tally) Read(name string, r io.Reader, column string) error {
	rr := newRecords(r)
	first, err := rr.next()
	if errors.Is(err, io.EOF) {
		t.Inputs = append(t.Inputs, Input{Name: name, Format: FormatLines})
		return nil
	}
	if err != nil {
		return err
	}
	if column == "" && !first.over {
		if _, r := resultIn(first.rec); r != readNone {
			return t.readLines(name, rr, first)
		}
	}
	h, ok := parseHeader(first)
	if !ok && column == "" {
		return t.readLines(name, rr, first)
	}
	in := Input{Name: name, Format: FormatCSV}
	col, known := h.find(column)
	switch {
	case column != "" && col == 0:
		return ErrNoColumn
	case column != "":
		in.Column, in.ColumnName = col, h.knownName(col)
	case known != "":
		in.Column, in.ColumnName = col, known
	}
	rr.quoted = true
	return t.readCSV(rr, h, in)
}

// readCSV reads the data rows of a CSV export, one device a row.
func (t *Tally) readCSV(rr *records, h header, in Input) error {
	var sample []record
	if in.Column == 0 {
		var err error
		sample, err = readSample(rr)
		if err != nil {
			return err
		}
		in.Column = resultColumn(sample, h.split)
	}
	t.Inputs = append(t.Inputs, in)
	for _, rec := range sample {
		t.csvRow(rec, h.split, in.Column)
	}
	for {
		rec, err := rr.next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		t.csvRow(rec, h.split, in.Column)
	}
}

func readSample(rr *records) ([]record, error) {
	var sample []record
	for len(sample) < sampleRows {
		rec, err := rr.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		rec.rec = append([]byte(nil), rec.rec...)
		sample = append(sample, rec)
	}
	return sample, nil
}

// csvRow counts one data row. Column 0 means any: the row is read as
// text.
func (t *Tally) csvRow(rec record, split *splitter, column int) {
	if rec.over {
		t.Unreadable++
		return
	}
	if column == 0 {
		o, r := resultIn(rec.rec)
		if r == readNone {
			r = readBroken
		}
		t.add(o, r)
		return
	}
	fields, ok := split.split(rec.rec)
	if !ok || len(fields) < column {
		t.Unreadable++
		return
	}
	t.add(valueIn([]byte(fields[column-1])))
}

// readLines reads a log or a list of lines: each line holding a result
// counts once.
func (t *Tally) readLines(name string, rr *records, first record) error {
	t.Inputs = append(t.Inputs, Input{Name: name, Format: FormatLines})
	rr.quoted = false
	for rec, err := first, error(nil); ; rec, err = rr.next() {
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		t.line(rec)
	}
}

func (t *Tally) line(rec record) {
	if rec.over {
		t.Unreadable++
		return
	}
	if len(bytes.TrimSpace(rec.rec)) == 0 {
		return
	}
	t.add(resultIn(rec.rec))
}
