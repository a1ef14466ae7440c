package msidb

import (
	"bytes"
	"encoding/binary"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

// sampleTables use every column kind, null cells, a two-column key and a
// binary cell.
func sampleTables() []Table {
	return []Table{
		{Name: "Property", Columns: []Column{{"Property", "s72", true}, {"Value", "l0", false}},
			Rows: []Row{{"ProductName", "Control D (ctrld)"}, {"ALLUSERS", "1"}, {"Zed", "last"}}},
		{Name: "Upgrade", Columns: []Column{{"UpgradeCode", "s38", true}, {"VersionMin", "S20", true}, {"VersionMax", "S20", true},
			{"Language", "S255", true}, {"Attributes", "i4", true}, {"Remove", "S255", false}, {"ActionProperty", "s72", false}},
			Rows: []Row{{"{6A5C1E7B-3F0D-4C29-9B8E-2D7F41C0A9E3}", "", "1.2.3", "", 1, "", "OLDER"},
				{"{6A5C1E7B-3F0D-4C29-9B8E-2D7F41C0A9E3}", "1.2.3", "", "", 2, "", "NEWER"}}},
		{Name: "CustomAction", Columns: customActionSchema.Columns,
			Rows: []Row{{"A", -32767, "", "", nil}, {"B", 32767, "src", "t", -2147483647}, {"C", 0, "", "", 2147483647}}},
		{Name: "Binary", Columns: []Column{{"Name", "s72", true}, {"Data", "V0", false}},
			Rows: []Row{{"Blob", []byte("binary\x00data")}, {"Empty", nil}}},
		{Name: "Error", Columns: []Column{{"Error", "i2", true}, {"Message", "L0", false}}},
	}
}

func sampleSummary() Summary {
	at := time.Unix(1_700_000_000, 0).UTC()
	return Summary{Codepage: 1252, Title: "Installation Database", Template: "Arm64;1033",
		RevisionNumber: "{11111111-2222-5333-8444-555555555555}", Created: at, LastSaved: at, PageCount: 500, WordCount: 2, Security: 2}
}

func writeDB(t testing.TB, tables []Table, s Summary) mapStorage {
	t.Helper()
	m := mapStorage{}
	w := NewWriter(m)
	if err := w.SetCodepage(1252); err != nil {
		t.Fatal(err)
	}
	for _, tb := range tables {
		if err := w.WriteTable(tb); err != nil {
			t.Fatal(err)
		}
	}
	w.SetSummary(s)
	if err := w.AddStream("ctrld.cab", 3, strings.NewReader("cab")); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestRoundTrip(t *testing.T) {
	tables := sampleTables()
	m := writeDB(t, tables, sampleSummary())
	r, err := NewReader(m)
	if err != nil {
		t.Fatal(err)
	}
	if r.Codepage != 1252 || r.Summary != sampleSummary() {
		t.Errorf("code page %d, summary %+v", r.Codepage, r.Summary)
	}
	if len(r.Tables) != len(tables) {
		t.Fatalf("%d tables", len(r.Tables))
	}
	for _, want := range tables {
		got := r.Table(want.Name)
		s, _ := newSchema(want)
		s.sortRows(want.Rows)
		if got == nil || !reflect.DeepEqual(got.Columns, want.Columns) || len(got.Rows) != len(want.Rows) || (len(want.Rows) > 0 && !reflect.DeepEqual(got.Rows, want.Rows)) {
			t.Errorf("table %s:\n got %+v\nwant %+v", want.Name, got, want)
		}
	}
	if !reflect.DeepEqual(r.Streams(), []string{"ctrld.cab"}) {
		t.Errorf("other streams %q", r.Streams())
	}
	if _, ok := m[mustEncode(t, "Binary.Blob", false)]; !ok {
		t.Error("no stream for the binary cell")
	}
	if _, ok := m[mustEncode(t, "Error", true)]; ok {
		t.Error("an empty table has a stream")
	}
}

func mustEncode(t testing.TB, name string, table bool) string {
	enc, err := EncodeName(name, table)
	if err != nil {
		t.Fatal(err)
	}
	return enc
}

// Rows and strings are sorted, so the order of the input does not show in
// the output, and refcounts are true counts.
func TestWriterIsDeterministicAndCountsReferences(t *testing.T) {
	a := sampleTables()
	b := sampleTables()
	for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
		b[i], b[j] = b[j], b[i]
	}
	last := len(b) - 1 // Property, now
	b[last].Rows[0], b[last].Rows[2] = b[last].Rows[2], b[last].Rows[0]
	ma, mb := writeDB(t, a, sampleSummary()), writeDB(t, b, sampleSummary())
	if !reflect.DeepEqual(ma, mb) {
		t.Fatal("the same tables in another order give other bytes")
	}
	poolData, strData := ma[mustEncode(t, "_StringPool", true)], ma[mustEncode(t, "_StringData", true)]
	st, _ := decodePool(poolData, strData)
	for id, s := range st.strs {
		if s == "" {
			continue
		}
		ref := int(binary.LittleEndian.Uint16(poolData[4*id+2:]))
		// Property: _Tables, _Columns.Table twice, the column name.
		want := map[string]int{"Property": 4, "Value": 1, "{6A5C1E7B-3F0D-4C29-9B8E-2D7F41C0A9E3}": 2, "1.2.3": 2, "Name": 1}[s]
		if want != 0 && ref != want {
			t.Errorf("refcount of %q = %d, want %d", s, ref, want)
		}
		if id > 1 && st.strs[id-1] >= s {
			t.Errorf("ids not in byte order: %q then %q", st.strs[id-1], s)
		}
	}
}

func TestThreeByteIDsRoundTrip(t *testing.T) {
	tb := Table{Name: "Property", Columns: []Column{{"Property", "s72", true}, {"Value", "l0", false}}}
	for i := 0; i < 40000; i++ {
		tb.Rows = append(tb.Rows, Row{"P" + strconv.Itoa(i), "V" + strconv.Itoa(i)})
	}
	m := writeDB(t, []Table{tb}, sampleSummary())
	if got := len(m[mustEncode(t, "Property", true)]); got != 40000*6 {
		t.Fatalf("Property stream %d bytes, want 6 per row", got)
	}
	r, err := NewReader(m)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Table("Property"); len(got.Rows) != 40000 || got.Rows[0][0] != "P0" || got.Rows[0][1] != "V0" {
		t.Fatalf("read %d rows, first %v", len(got.Rows), got.Rows[0])
	}
}

func TestWriterRefusesBadTables(t *testing.T) {
	cols := []Column{{"K", "s72", true}, {"N", "i2", false}}
	for name, tb := range map[string]Table{
		"system name":     {Name: "_Tables", Columns: cols},
		"bad name":        {Name: "1x", Columns: cols},
		"no key":          {Name: "T", Columns: []Column{{"K", "s72", false}}},
		"key after value": {Name: "T", Columns: []Column{{"N", "i2", false}, {"K", "s72", true}}},
		"two binaries":    {Name: "T", Columns: []Column{{"K", "s72", true}, {"A", "v0", false}, {"B", "v0", false}}},
		"bad type":        {Name: "T", Columns: []Column{{"K", "q72", true}}},
		"duplicate key":   {Name: "T", Columns: cols, Rows: []Row{{"a", 1}, {"a", 2}}},
		"null in s72":     {Name: "T", Columns: cols, Rows: []Row{{"", 1}}},
		"null in i2":      {Name: "T", Columns: cols, Rows: []Row{{"a", nil}}},
		"i2 range":        {Name: "T", Columns: cols, Rows: []Row{{"a", -32768}}},
		"too long":        {Name: "T", Columns: cols, Rows: []Row{{strings.Repeat("a", 73), 1}}},
		"wrong type":      {Name: "T", Columns: cols, Rows: []Row{{"a", "1"}}},
		"short row":       {Name: "T", Columns: cols, Rows: []Row{{"a"}}},
	} {
		if err := NewWriter(mapStorage{}).WriteTable(tb); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	w := NewWriter(mapStorage{})
	if err := w.Close(); err == nil {
		t.Error("a database without summary information was written")
	}
}

func TestReaderRefusesCorruptTables(t *testing.T) {
	good := writeDB(t, sampleTables(), sampleSummary())
	for name, mutate := range map[string]func(m mapStorage){
		"ragged table":     func(m mapStorage) { k := mustEncode(t, "Property", true); m[k] = m[k][:len(m[k])-1] },
		"id out of range":  func(m mapStorage) { k := mustEncode(t, "Property", true); m[k][0], m[k][1] = 0xff, 0xff },
		"ragged _Columns":  func(m mapStorage) { k := mustEncode(t, "_Columns", true); m[k] = m[k][:len(m[k])-2] },
		"no binary stream": func(m mapStorage) { delete(m, mustEncode(t, "Binary.Blob", false)) },
		"duplicate key":    func(m mapStorage) { k := mustEncode(t, "Property", true); copy(m[k][2:4], m[k][0:2]) },
		"column order":     func(m mapStorage) { k := mustEncode(t, "_Columns", true); n := len(m[k]) / 8; m[k][2*n] ^= 1 },
		"bad pool":         func(m mapStorage) { k := mustEncode(t, "_StringPool", true); m[k] = m[k][:len(m[k])-1] },
		"bad summary":      func(m mapStorage) { m[SummaryStream] = []byte("junk") },
	} {
		m := mapStorage{}
		for k, v := range good {
			m[k] = append([]byte(nil), v...)
		}
		mutate(m)
		if _, err := NewReader(m); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// FuzzReader reads streams cut from the input, writes what it read and
// reads that again: both reads must agree.
func FuzzReader(f *testing.F) {
	f.Add(pack(writeDB(f, sampleTables(), sampleSummary())))
	f.Add(pack(writeDB(f, nil, Summary{})))
	f.Fuzz(func(t *testing.T, data []byte) {
		first, err := NewReader(unpack(data))
		if err != nil {
			return
		}
		again := mapStorage{}
		w := NewWriter(again)
		if err := w.SetCodepage(first.Codepage); err != nil {
			t.Fatalf("code page read but not written: %v", err)
		}
		for _, tb := range first.Tables {
			if err := w.WriteTable(tb); err != nil {
				t.Fatalf("table read but not written: %v", err)
			}
		}
		w.SetSummary(first.Summary)
		if err := w.Close(); err != nil {
			t.Fatalf("written back: %v", err)
		}
		second, err := NewReader(again)
		if err != nil {
			t.Fatalf("read again: %v", err)
		}
		if !reflect.DeepEqual(first.Tables, second.Tables) || first.Summary != second.Summary || first.Codepage != second.Codepage {
			t.Fatalf("reads differ:\n%+v\n%+v", first, second)
		}
	})
}

// pack and unpack turn a storage into one byte string: per stream a u16
// name length, the name, a u32 size and the data.
func pack(m mapStorage) []byte {
	var b bytes.Buffer
	for _, n := range m.Names() {
		binary.Write(&b, binary.LittleEndian, uint16(len(n)))
		b.WriteString(n)
		binary.Write(&b, binary.LittleEndian, uint32(len(m[n])))
		b.Write(m[n])
	}
	return b.Bytes()
}

func unpack(data []byte) mapStorage {
	m := mapStorage{}
	r := bytes.NewReader(data)
	for {
		var n uint16
		if binary.Read(r, binary.LittleEndian, &n) != nil || int(n) > r.Len() {
			return m
		}
		name := make([]byte, n)
		r.Read(name)
		var size uint32
		if binary.Read(r, binary.LittleEndian, &size) != nil || int64(size) > int64(r.Len()) {
			return m
		}
		content := make([]byte, size)
		r.Read(content)
		m[string(name)] = content
	}
}
