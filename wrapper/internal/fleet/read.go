package fleet

import (
	"bytes"
	"errors"
	"io"
	"strings"
)

// ErrNoColumn is returned when the column asked for is not in the header.
var ErrNoColumn = errors.New("no column of that name in the header")

// sampleRows is how many rows are looked at to find the column that holds
// result lines, when the header does not name a known column.
const sampleRows = 32

// Read reads the next input into the tally; the tally knows it by its
// place. column names the CSV column to read; empty lets Read choose. It
// streams: memory stays bounded whatever the input's size, but for a
// few bytes a device of the inputs that name their devices.
func (t *Tally) Read(r io.Reader, column string) error {
	rr := newRecords(r)
	first, err := rr.next()
	if errors.Is(err, io.EOF) {
		t.Inputs = append(t.Inputs, t.nextInput(FormatLines))
		return nil
	}
	if err != nil {
		return err
	}
	if column == "" && !first.over {
		if _, r := resultIn(first.rec); r != readNone {
			return t.readLines(rr, first)
		}
	}
	h, ok := parseHeader(first)
	if !ok && column == "" {
		return t.readLines(rr, first)
	}
	in := t.nextInput(FormatCSV)
	in.DeviceColumn, in.TimeColumn = h.known(deviceColumns), h.known(timeColumns)
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
	cols := columns{result: in.Column, device: h.index(in.DeviceColumn), time: h.index(in.TimeColumn)}
	for _, rec := range sample {
		t.csvRow(rec, h.split, cols)
	}
	for {
		rec, err := rr.next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		t.csvRow(rec, h.split, cols)
	}
}

// nextInput starts the description of the next input.
func (t *Tally) nextInput(f Format) Input { return Input{Number: len(t.Inputs) + 1, Format: f} }

// columns are the 1-based columns of a CSV export that are read: the
// result, and when the export has them the device's name and the time
// of the attempt; 0 for none.
type columns struct{ result, device, time int }

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

// csvRow counts one data row. Result column 0 means any: the row is read
// as text.
func (t *Tally) csvRow(rec record, split *splitter, cols columns) {
	if rec.over {
		t.Unreadable++
		return
	}
	column := cols.result
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
	o, r := valueIn([]byte(fields[column-1]))
	name := field(fields, cols.device)
	if len(bytes.TrimSpace([]byte(name))) == 0 {
		t.add(o, r)
		return
	}
	t.addDevice([]byte(name), newAttempt(o, r, t.parseTime(field(fields, cols.time))))
}

// field is the 1-based column col of fields, empty when it is not there.
func field(fields []string, col int) string {
	if col < 1 || col > len(fields) {
		return ""
	}
	return strings.TrimSpace(fields[col-1])
}

// readLines reads a log or a list of lines: each line holding a result
// counts once.
func (t *Tally) readLines(rr *records, first record) error {
	t.Inputs = append(t.Inputs, t.nextInput(FormatLines))
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
