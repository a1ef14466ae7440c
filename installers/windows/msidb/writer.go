package msidb

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sort"
)

// Container receives a database's streams under their stored names; a
// *cfb.Writer is one.
type Container interface {
	Add(name string, size int64, r io.Reader) error
}

// Writer writes tables, the summary information and extra streams (such
// as an embedded cabinet) into a Container. Nothing reaches the container
// before Close, which writes everything in a fixed order.
type Writer struct {
	c        Container
	codepage int
	tables   []table
	summary  *Summary
	streams  []stream
	names    map[string]bool
}

type table struct {
	schema
	rows []Row
}

type stream struct {
	name string
	size int64
	r    io.Reader
}

// NewWriter returns a Writer into c, with code page 0 (neutral).
func NewWriter(c Container) *Writer {
	return &Writer{c: c, names: map[string]bool{}}
}

// SetCodepage sets the database code page (1252 for Western European
// text; 0 for neutral, which suits ASCII).
func (w *Writer) SetCodepage(cp int) error {
	if cp < 0 || cp >= poolLongIDs {
		return fmt.Errorf("msidb: code page %d", cp)
	}
	w.codepage = cp
	return nil
}

// WriteTable adds a table; it must not be there already. Rows are copied
// and checked against the schema, so the caller may reuse them.
func (w *Writer) WriteTable(t Table) error {
	s, err := newSchema(t)
	if err != nil {
		return err
	}
	if w.names["!"+t.Name] {
		return fmt.Errorf("msidb: table %s written twice", t.Name)
	}
	rows := make([]Row, len(t.Rows))
	for i, r := range t.Rows {
		if err := s.checkRow(r); err != nil {
			return err
		}
		rows[i] = append(Row(nil), r...)
	}
	if err := s.checkKeys(rows); err != nil {
		return err
	}
	s.sortRows(rows)
	w.names["!"+t.Name] = true
	w.tables = append(w.tables, table{s, rows})
	return nil
}

// SetSummary sets the summary information.
func (w *Writer) SetSummary(s Summary) { w.summary = &s }

// AddStream adds a stream that tables refer to, such as the cabinet named
// by Media.Cabinet "#name". r is read during Close.
func (w *Writer) AddStream(name string, size int64, r io.Reader) error {
	stored, err := EncodeName(name, false)
	if err != nil {
		return err
	}
	if w.names[stored] {
		return fmt.Errorf("msidb: stream %s added twice", name)
	}
	w.names[stored] = true
	w.streams = append(w.streams, stream{stored, size, r})
	return nil
}

// Close writes every stream into the container: the string table, the
// system tables, each non-empty table, binary cells, the summary and the
// extra streams.
func (w *Writer) Close() error {
	if w.summary == nil {
		return errors.New("msidb: no summary information")
	}
	streams, err := w.databaseStreams()
	if err != nil {
		return err
	}
	sum, err := w.summary.MarshalBinary()
	if err != nil {
		return err
	}
	streams = append(streams, stream{SummaryStream, int64(len(sum)), bytes.NewReader(sum)})
	for _, s := range append(streams, w.streams...) {
		if err := w.c.Add(s.name, s.size, s.r); err != nil {
			return err
		}
	}
	return nil
}

// databaseStreams encodes the string table and every table.
func (w *Writer) databaseStreams() ([]stream, error) {
	tables := append([]table(nil), w.tables...)
	sort.Slice(tables, func(i, j int) bool { return tables[i].name < tables[j].name })
	p := newPool(countStrings(tables))
	poolData, strData, err := p.encode(w.codepage)
	if err != nil {
		return nil, err
	}
	var out []stream
	add := func(name string, table bool, data []byte) error {
		stored, err := EncodeName(name, table)
		if err != nil {
			return err
		}
		if w.names[stored] && !table {
			return fmt.Errorf("msidb: stream %s is also a binary cell", name)
		}
		out = append(out, stream{stored, int64(len(data)), bytes.NewReader(data)})
		return nil
	}
	add("_StringPool", true, poolData)
	add("_StringData", true, strData)
	add("_Tables", true, encodeTablesTable(tables, p))
	add("_Columns", true, encodeColumnsTable(tables, p))
	for _, t := range tables {
		if len(t.rows) == 0 {
			continue
		}
		if err := add(t.name, true, t.encode(p)); err != nil {
			return nil, err
		}
		for _, r := range t.rows {
			for i, c := range r {
				if b, ok := c.([]byte); ok && t.types[i].kind == kindBinary && b != nil {
					if err := add(t.name+"."+t.keyString(r), false, b); err != nil {
						return nil, err
					}
				}
			}
		}
	}
	return out, nil
}

// countStrings counts, per string, the cells that refer to it, the system
// tables' cells included.
func countStrings(tables []table) map[string]int {
	refs := map[string]int{}
	for _, t := range tables {
		refs[t.name] += 1 + len(t.columns) // _Tables.Name, _Columns.Table
		for _, c := range t.columns {
			refs[c.Name]++
		}
		for _, r := range t.rows {
			for i, c := range r {
				if s, ok := c.(string); ok && s != "" && t.types[i].kind == kindString {
					refs[s]++
				}
			}
		}
	}
	return refs
}

// column-major encoding helpers.
type columnWriter struct {
	buf     []byte
	idBytes int
}

func (c *columnWriter) str(p *pool, s string) {
	id := 0
	if s != "" {
		id = p.ids[s]
	}
	c.buf = binary.LittleEndian.AppendUint16(c.buf, uint16(id))
	if c.idBytes == 3 {
		c.buf = append(c.buf, byte(id>>16))
	}
}

// short and long store v biased so that 0 is null.
func (c *columnWriter) short(v any) {
	stored := uint16(0)
	if n, ok := v.(int); ok {
		stored = uint16(n + 0x8000)
	}
	c.buf = binary.LittleEndian.AppendUint16(c.buf, stored)
}

func (c *columnWriter) long(v any) {
	stored := uint32(0)
	if n, ok := v.(int); ok {
		stored = uint32(n) ^ 0x8000_0000
	}
	c.buf = binary.LittleEndian.AppendUint32(c.buf, stored)
}

func (t table) encode(p *pool) []byte {
	c := columnWriter{idBytes: p.idBytes}
	for i, ct := range t.types {
		for _, r := range t.rows {
			switch ct.kind {
			case kindString:
				c.str(p, r[i].(string))
			case kindShort:
				c.short(r[i])
			case kindLong:
				c.long(r[i])
			case kindBinary:
				present := 0
				if b, _ := r[i].([]byte); b != nil {
					present = 1
				}
				c.buf = binary.LittleEndian.AppendUint16(c.buf, uint16(present))
			}
		}
	}
	return c.buf
}

// _Tables lists the tables in string id order; _Columns their columns.
func encodeTablesTable(tables []table, p *pool) []byte {
	c := columnWriter{idBytes: p.idBytes}
	for _, t := range tables {
		c.str(p, t.name)
	}
	return c.buf
}

func encodeColumnsTable(tables []table, p *pool) []byte {
	c := columnWriter{idBytes: p.idBytes}
	for _, t := range tables {
		for range t.columns {
			c.str(p, t.name)
		}
	}
	for _, t := range tables {
		for i := range t.columns {
			c.short(i + 1)
		}
	}
	for _, t := range tables {
		for _, col := range t.columns {
			c.str(p, col.Name)
		}
	}
	for _, t := range tables {
		for i, col := range t.columns {
			c.short(int(int16(t.types[i].bits(col.Key))))
		}
	}
	return c.buf
}
