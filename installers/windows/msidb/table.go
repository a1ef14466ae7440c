package msidb

import (
	"bytes"
	"fmt"
	"math"
	"sort"
	"strings"
)

// Table is a table as data: its schema and its rows. A row holds one cell
// per column: a string for string columns ("" is null), an int or nil
// (null) for integer columns, a []byte or nil (null) for binary columns.
type Table struct {
	Name    string
	Columns []Column
	Rows    []Row
}

// Row is one row of a table.
type Row []any

// Null integer values are the smallest of each type, which MSI cannot
// store.
const (
	minShort = -math.MaxInt16
	maxShort = math.MaxInt16
	minLong  = -math.MaxInt32
	maxLong  = math.MaxInt32
)

// schema is a validated table schema.
type schema struct {
	name    string
	columns []Column
	types   []columnType
	keys    int
}

func newSchema(t Table) (schema, error) {
	s := schema{name: t.Name, columns: t.Columns}
	if !isIdentifier(t.Name) || reserved[t.Name] {
		return s, fmt.Errorf("msidb: table name %q: want an identifier that is not a system table", t.Name)
	}
	if _, err := EncodeName(t.Name, true); err != nil {
		return s, err
	}
	if len(t.Columns) == 0 || len(t.Columns) > 32 {
		return s, fmt.Errorf("msidb: table %s: %d columns (want 1 to 32)", t.Name, len(t.Columns))
	}
	seen := map[string]bool{}
	binaries := 0
	for i, c := range t.Columns {
		ct, err := parseType(c.Type)
		if err != nil {
			return s, fmt.Errorf("table %s: %w", t.Name, err)
		}
		if !isIdentifier(c.Name) || seen[c.Name] {
			return s, fmt.Errorf("msidb: table %s: column name %q: want a unique identifier", t.Name, c.Name)
		}
		seen[c.Name] = true
		if c.Key {
			if s.keys != i {
				return s, fmt.Errorf("msidb: table %s: key column %s must come before the other columns", t.Name, c.Name)
			}
			if ct.kind == kindBinary {
				return s, fmt.Errorf("msidb: table %s: binary column %s cannot be a key", t.Name, c.Name)
			}
			s.keys++
		}
		if ct.kind == kindBinary {
			binaries++
		}
		s.types = append(s.types, ct)
	}
	if binaries > 1 {
		// A binary cell's stream is named after the table and the row's
		// key, so a row can hold only one.
		return s, fmt.Errorf("msidb: table %s: more than one binary column", t.Name)
	}
	if s.keys == 0 {
		return s, fmt.Errorf("msidb: table %s: no key column", t.Name)
	}
	return s, nil
}

var reserved = map[string]bool{"_Tables": true, "_Columns": true, "_StringPool": true, "_StringData": true}

// isIdentifier: letters, digits, underscores and periods, starting with a
// letter or an underscore.
func isIdentifier(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' || s[0] == '.' {
		return false
	}
	for _, r := range s {
		if alphabetIndex(r) < 0 {
			return false
		}
	}
	return true
}

// checkRow checks one row's cells against the schema.
func (s schema) checkRow(r Row) error {
	if len(r) != len(s.columns) {
		return fmt.Errorf("msidb: table %s: row has %d cells, want %d", s.name, len(r), len(s.columns))
	}
	for i, cell := range r {
		if err := s.checkCell(i, cell); err != nil {
			return fmt.Errorf("msidb: table %s, column %s: %w", s.name, s.columns[i].Name, err)
		}
	}
	return nil
}

func (s schema) checkCell(i int, cell any) error {
	t := s.types[i]
	null := cell == nil
	switch t.kind {
	case kindString:
		v, ok := cell.(string)
		if !ok {
			return fmt.Errorf("%T for a string column", cell)
		}
		if t.size > 0 && len(v) > t.size {
			return fmt.Errorf("%d bytes, longer than %d", len(v), t.size)
		}
		null = v == ""
	case kindShort, kindLong:
		if null {
			break
		}
		v, ok := cell.(int)
		if !ok {
			return fmt.Errorf("%T for an integer column", cell)
		}
		lo, hi := minShort, maxShort
		if t.kind == kindLong {
			lo, hi = minLong, maxLong
		}
		if v < lo || v > hi {
			return fmt.Errorf("%d out of range %d..%d", v, lo, hi)
		}
	case kindBinary:
		v, ok := cell.([]byte)
		if !null && !ok {
			return fmt.Errorf("%T for a binary column", cell)
		}
		null = v == nil
	}
	if null && !t.nullable {
		return fmt.Errorf("null in a column that is not nullable")
	}
	return nil
}

// keyString is a row's primary key as text, as binary cell streams name
// it: the key values joined with periods.
func (s schema) keyString(r Row) string {
	parts := make([]string, s.keys)
	for i := range parts {
		parts[i] = fmt.Sprint(cellText(r[i]))
	}
	return strings.Join(parts, ".")
}

func cellText(c any) any {
	if c == nil {
		return ""
	}
	return c
}

// checkKeys refuses two rows with the same primary key.
func (s schema) checkKeys(rows []Row) error {
	seen := make(map[string]bool, len(rows))
	for _, r := range rows {
		var k strings.Builder
		for i := 0; i < s.keys; i++ {
			fmt.Fprintf(&k, "%T:%v\x00", r[i], r[i])
		}
		if seen[k.String()] {
			return fmt.Errorf("msidb: table %s: duplicate primary key %s", s.name, s.keyString(r))
		}
		seen[k.String()] = true
	}
	return nil
}

// sortRows orders rows by their key cells: strings by bytes, integers by
// value, null first. The writer assigns string ids in byte order, so this
// is also the order of the stored key values.
func (s schema) sortRows(rows []Row) {
	sort.SliceStable(rows, func(a, b int) bool { return s.compareKeys(rows[a], rows[b]) < 0 })
}

func (s schema) compareKeys(a, b Row) int {
	for i := 0; i < s.keys; i++ {
		if c := compareCells(a[i], b[i]); c != 0 {
			return c
		}
	}
	return 0
}

func compareCells(a, b any) int {
	switch x := a.(type) {
	case string:
		return bytes.Compare([]byte(x), []byte(b.(string)))
	case int:
		y, ok := b.(int)
		switch {
		case !ok:
			return 1
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	}
	if b == nil {
		return 0
	}
	return -1
}
