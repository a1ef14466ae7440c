package msidb

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sort"
)

// Storage is where a database's streams come from, under their stored
// names; a compound file reader adapts to it.
type Storage interface {
	// Names lists the stored stream names.
	Names() []string
	// Open returns a stream's content.
	Open(name string) (io.Reader, error)
}

// Reader is a database that has been read: its tables, summary
// information and other streams.
type Reader struct {
	Codepage int
	// Tables are sorted by name, rows by primary key.
	Tables  []Table
	Summary Summary
	storage Storage
	other   []string
}

// ErrFormat marks input that is not a well-formed database.
var ErrFormat = errors.New("msidb: not a valid database")

// maxStream caps what the reader loads of one table, system or binary
// stream; a package's tables take kilobytes. Decoded rows take about ten
// times their stored size, so this also bounds the reader's memory.
const maxStream = 8 << 20

// NewReader reads the string table, the schema, every table and the
// summary information from s.
func NewReader(s Storage) (*Reader, error) {
	r := &Reader{storage: s}
	stored := map[string]bool{}
	for _, n := range s.Names() {
		stored[n] = true
	}
	load := func(name string, table bool) ([]byte, bool, error) {
		enc, err := EncodeName(name, table)
		if err != nil || !stored[enc] {
			return nil, false, err
		}
		data, err := r.load(enc)
		return data, true, err
	}
	poolData, _, err := load("_StringPool", true)
	if err != nil {
		return nil, err
	}
	strData, _, err := load("_StringData", true)
	if err != nil {
		return nil, err
	}
	st, err := decodePool(poolData, strData)
	if err != nil {
		return nil, err
	}
	r.Codepage = st.codepage
	schemas, err := readSchema(st, load)
	if err != nil {
		return nil, err
	}
	used := map[string]bool{}
	for _, n := range []string{"_StringPool", "_StringData", "_Tables", "_Columns"} {
		enc, _ := EncodeName(n, true)
		used[enc] = true
	}
	for _, sc := range schemas {
		t, err := r.readTable(st, sc, load, used)
		if err != nil {
			return nil, err
		}
		r.Tables = append(r.Tables, t)
	}
	if stored[SummaryStream] {
		used[SummaryStream] = true
		data, err := r.load(SummaryStream)
		if err != nil {
			return nil, err
		}
		if err := r.Summary.UnmarshalBinary(data); err != nil {
			return nil, err
		}
	}
	for _, n := range s.Names() {
		if !used[n] {
			name, _ := DecodeName(n)
			r.other = append(r.other, name)
		}
	}
	sort.Strings(r.other)
	return r, nil
}

func (r *Reader) load(stored string) ([]byte, error) {
	f, err := r.storage.Open(stored)
	if err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, maxStream+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxStream {
		name, _ := DecodeName(stored)
		return nil, fmt.Errorf("%w: stream %s is over %d bytes", ErrFormat, name, maxStream)
	}
	return data, nil
}

// Table returns the named table, or nil.
func (r *Reader) Table(name string) *Table {
	for i := range r.Tables {
		if r.Tables[i].Name == name {
			return &r.Tables[i]
		}
	}
	return nil
}

// Streams lists the (unpacked) names of the streams that are neither
// tables nor binary cells nor the summary: an embedded cabinet, or a
// signature.
func (r *Reader) Streams() []string { return r.other }

// OpenStream opens one of those by its unpacked name.
func (r *Reader) OpenStream(name string) (io.Reader, error) {
	stored, err := EncodeName(name, false)
	if err != nil {
		return nil, err
	}
	return r.storage.Open(stored)
}

type loader func(name string, table bool) ([]byte, bool, error)

// cellReader reads fixed-width cells from a column-major stream.
type cellReader struct {
	data    []byte
	off     int
	idBytes int
}

func (c *cellReader) id() int {
	v := int(binary.LittleEndian.Uint16(c.data[c.off:]))
	if c.idBytes == 3 {
		v |= int(c.data[c.off+2]) << 16
	}
	c.off += c.idBytes
	return v
}

func (c *cellReader) short() any {
	v := binary.LittleEndian.Uint16(c.data[c.off:])
	c.off += 2
	if v == 0 {
		return nil
	}
	return int(v) - 0x8000
}

func (c *cellReader) long() any {
	v := binary.LittleEndian.Uint32(c.data[c.off:])
	c.off += 4
	if v == 0 {
		return nil
	}
	return int(int32(v ^ 0x8000_0000))
}

// readSchema reads _Tables and _Columns into validated schemas, sorted by
// table name.
func readSchema(st stringTable, load loader) ([]schema, error) {
	tablesData, _, err := load("_Tables", true)
	if err != nil {
		return nil, err
	}
	columnsData, _, err := load("_Columns", true)
	if err != nil {
		return nil, err
	}
	w := st.idBytes
	if len(tablesData)%w != 0 || len(columnsData)%(2*w+4) != 0 {
		return nil, fmt.Errorf("%w: system tables of %d and %d bytes", ErrFormat, len(tablesData), len(columnsData))
	}
	var names []string
	c := cellReader{data: tablesData, idBytes: w}
	for c.off < len(tablesData) {
		name, err := st.lookup(c.id())
		if err != nil {
			return nil, fmt.Errorf("%w: _Tables: %v", ErrFormat, err)
		}
		names = append(names, name)
	}
	cols := map[string][]Column{}
	n := len(columnsData) / (2*w + 4)
	tc := cellReader{data: columnsData, idBytes: w}
	nc := cellReader{data: columnsData, off: n * w, idBytes: w}
	namec := cellReader{data: columnsData, off: n * (w + 2), idBytes: w}
	typec := cellReader{data: columnsData, off: n * (2*w + 2), idBytes: w}
	for i := 0; i < n; i++ {
		tname, err1 := st.lookup(tc.id())
		number := nc.short()
		cname, err2 := st.lookup(namec.id())
		typ := typec.short()
		if err := errors.Join(err1, err2); err != nil {
			return nil, fmt.Errorf("%w: _Columns: %v", ErrFormat, err)
		}
		num, ok1 := number.(int)
		bits, ok2 := typ.(int)
		if !ok1 || !ok2 || num != len(cols[tname])+1 {
			return nil, fmt.Errorf("%w: _Columns: table %q column %v out of order", ErrFormat, tname, number)
		}
		col, err := columnFromBits(cname, uint16(bits))
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrFormat, err)
		}
		cols[tname] = append(cols[tname], col)
	}
	var schemas []schema
	seen := map[string]bool{}
	for _, name := range names {
		if seen[name] {
			return nil, fmt.Errorf("%w: table %q listed twice", ErrFormat, name)
		}
		seen[name] = true
		s, err := newSchema(Table{Name: name, Columns: cols[name]})
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrFormat, err)
		}
		schemas = append(schemas, s)
	}
	if len(cols) != len(names) {
		return nil, fmt.Errorf("%w: _Columns names a table that _Tables does not list", ErrFormat)
	}
	sort.Slice(schemas, func(i, j int) bool { return schemas[i].name < schemas[j].name })
	return schemas, nil
}

func (r *Reader) readTable(st stringTable, s schema, load loader, used map[string]bool) (Table, error) {
	t := Table{Name: s.name, Columns: s.columns}
	data, present, err := load(s.name, true)
	if err != nil || !present {
		return t, err
	}
	enc, _ := EncodeName(s.name, true)
	used[enc] = true
	rowWidth := 0
	offsets := make([]int, len(s.types))
	for _, ct := range s.types {
		rowWidth += ct.width(st.idBytes)
	}
	if len(data)%rowWidth != 0 {
		return t, fmt.Errorf("%w: table %s: %d bytes, not a whole number of %d-byte rows", ErrFormat, s.name, len(data), rowWidth)
	}
	n := len(data) / rowWidth
	if n == 0 {
		return t, nil
	}
	t.Rows = make([]Row, n)
	for i := range t.Rows {
		t.Rows[i] = make(Row, len(s.types))
	}
	off := 0
	for i, ct := range s.types {
		offsets[i] = off
		off += n * ct.width(st.idBytes)
	}
	var binary []int
	for i, ct := range s.types {
		c := cellReader{data: data, off: offsets[i], idBytes: st.idBytes}
		for _, row := range t.Rows {
			switch ct.kind {
			case kindString:
				v, err := st.lookup(c.id())
				if err != nil {
					return t, fmt.Errorf("%w: table %s: %v", ErrFormat, s.name, err)
				}
				row[i] = v
			case kindShort:
				row[i] = c.short()
			case kindLong:
				row[i] = c.long()
			case kindBinary:
				if v := c.short(); v != nil {
					row[i] = []byte{} // filled below, once the keys are known
				}
			}
		}
		if ct.kind == kindBinary {
			binary = append(binary, i)
		}
	}
	for _, row := range t.Rows {
		if err := s.checkRow(row); err != nil {
			return t, fmt.Errorf("%w: %v", ErrFormat, err)
		}
	}
	if err := s.checkKeys(t.Rows); err != nil {
		return t, fmt.Errorf("%w: %v", ErrFormat, err)
	}
	for _, row := range t.Rows {
		for _, i := range binary {
			if row[i] == nil {
				continue
			}
			name := s.name + "." + s.keyString(row)
			data, present, err := load(name, false)
			if err == nil && !present {
				err = fmt.Errorf("%w: table %s: no stream %s for a binary cell", ErrFormat, s.name, name)
			}
			if err != nil {
				return t, err
			}
			enc, _ := EncodeName(name, false)
			used[enc] = true
			row[i] = data
		}
	}
	s.sortRows(t.Rows)
	return t, nil
}
