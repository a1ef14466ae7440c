package msidb

import (
	"bytes"
	"encoding/hex"
	"strconv"
	"strings"
	"testing"
	"time"
)

func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.NewReplacer(" ", "", "|", "", "\n", "").Replace(s))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Column types of the spec's example, IDT notation against the stored bits.
func TestColumnTypeBits(t *testing.T) {
	for _, c := range []struct {
		idt  string
		key  bool
		bits uint16
	}{
		{"s72", true, 0x2D48}, {"S72", false, 0x1D48}, {"s38", true, 0x2D26}, {"l255", false, 0x0FFF},
		{"L0", false, 0x1F00}, {"L64", false, 0x1F40}, {"l0", false, 0x0F00}, {"i2", false, 0x0502},
		{"I2", false, 0x1502}, {"i2", true, 0x2502}, {"i4", false, 0x0104}, {"I4", false, 0x1104},
		{"i4", true, 0x2104}, {"v0", false, 0x0900},
	} {
		ct, err := parseType(c.idt)
		if err != nil {
			t.Fatal(err)
		}
		if got := ct.bits(c.key); got != c.bits {
			t.Errorf("%s key=%v: bits %#04x, want %#04x", c.idt, c.key, got, c.bits)
		}
		col, err := columnFromBits("X", c.bits)
		if err != nil || col.Type != c.idt || col.Key != c.key {
			t.Errorf("bits %#04x read as %+v, %v", c.bits, col, err)
		}
	}
	for _, bad := range []string{"", "s", "x72", "i3", "v2", "s256", "s072", "i"} {
		if _, err := parseType(bad); err == nil {
			t.Errorf("type %q accepted", bad)
		}
	}
	for _, bad := range []uint16{0x0C48 /* not persistent */, 0x4D48 /* temporary */, 0x0504 /* short of size 4 */, 0x0302 /* localizable long */} {
		if _, err := columnFromBits("X", bad); err == nil {
			t.Errorf("bits %#04x accepted", bad)
		}
	}
}

// The example pool starts: code page 0, 2-byte ids, then
// ServiceControl (14, 7), Name (4, 7), Event (5, 1), Arguments (9, 3).
func TestStringPoolExample(t *testing.T) {
	poolData := unhex(t, "0000 0000 | 0e00 0700 | 0400 0700 | 0500 0100 | 0900 0300")
	strData := []byte("ServiceControlNameEventArguments")
	st, err := decodePool(poolData, strData)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"", "ServiceControl", "Name", "Event", "Arguments"}
	if st.codepage != 0 || st.idBytes != 2 || strings.Join(st.strs, ",") != strings.Join(want, ",") {
		t.Fatalf("got %+v", st)
	}
	p := &pool{strs: want[1:], refs: []int{7, 7, 1, 3}, idBytes: 2}
	gotPool, gotData, err := p.encode(0)
	if err != nil || !bytes.Equal(gotPool, poolData) || !bytes.Equal(gotData, strData) {
		t.Fatalf("encode: % x / %q, %v", gotPool, gotData, err)
	}
}

// A string of 70,000 bytes takes an escape entry: (0, 1) then (0x1170, 1).
func TestStringPoolLongString(t *testing.T) {
	long := strings.Repeat("x", 70000)
	p := &pool{strs: []string{"LONG", long, "Binary"}, refs: []int{1, 1, 2}, idBytes: 2}
	poolData, strData, err := p.encode(0)
	if err != nil {
		t.Fatal(err)
	}
	if want := unhex(t, "0000 0000 | 0400 0100 | 0000 0100 | 7011 0100 | 0600 0200"); !bytes.Equal(poolData, want) {
		t.Fatalf("pool % x, want % x", poolData, want)
	}
	st, err := decodePool(poolData, strData)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.strs) != 4 || st.strs[2] != long || st.strs[3] != "Binary" {
		t.Fatalf("ids: %d strings, id 3 = %q", len(st.strs)-1, st.strs[3])
	}
}

func TestStringPoolThreeByteIDs(t *testing.T) {
	refs := map[string]int{}
	for i := 0; i < maxShortIDs+1; i++ {
		refs[strings.Repeat("s", 1+i%7)+string(rune('A'+i%26))+strconv.Itoa(i)] = 1
	}
	p := newPool(refs)
	poolData, _, _ := p.encode(1252)
	if p.idBytes != 3 || !bytes.Equal(poolData[:4], []byte{0xe4, 0x04, 0x00, 0x80}) {
		t.Fatalf("header % x, id bytes %d", poolData[:4], p.idBytes)
	}
	refs = map[string]int{"a": 1}
	if p := newPool(refs); p.idBytes != 2 {
		t.Fatal("a small pool uses 2-byte ids")
	}
}

func TestStringPoolCorrupt(t *testing.T) {
	for name, c := range map[string]struct{ pool, data string }{
		"ragged pool":      {"0000 0000 01", ""},
		"past the data":    {"0000 0000 0500 0100", "6162"},
		"data left over":   {"0000 0000 0100 0100", "6162"},
		"escape cut short": {"0000 0000 0000 0100", ""},
	} {
		if _, err := decodePool(unhex(t, c.pool), unhex(t, c.data)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// Table streams of the example, with its string ids.
var fileSchema = Table{Name: "File", Columns: []Column{
	{"File", "s72", true}, {"Component_", "s72", false}, {"FileName", "l255", false}, {"FileSize", "i4", false},
	{"Version", "S72", false}, {"Language", "S20", false}, {"Attributes", "I2", false}, {"Sequence", "i4", false},
}}

var customActionSchema = Table{Name: "CustomAction", Columns: []Column{
	{"Action", "s72", true}, {"Type", "i2", false}, {"Source", "S72", false}, {"Target", "S255", false}, {"ExtendedType", "I4", false},
}}

var mediaSchema = Table{Name: "Media", Columns: []Column{
	{"DiskId", "i2", true}, {"LastSequence", "i4", false}, {"DiskPrompt", "L64", false}, {"Cabinet", "S255", false},
	{"VolumeLabel", "S32", false}, {"Source", "S72", false},
}}

const provisionTarget = `start --token "[PROVISION_TOKEN]" --custom-hostname "[CUSTOM_HOSTNAME]" --intercept-mode "[INTERCEPT_MODE]" --dev="[USE_DEV_ENVIRONMENT]"`

var exampleIDs = map[string]int{
	"UninstallService": 39, "Provision": 43, "Ctrld": 54, "Wrapper": 55, "ctrld.exe": 91,
	"ctrld_install.exe": 92, "ctrld-install.exe": 93, provisionTarget: 117, "uninstall": 118, "#ctrld.cab": 132,
}

func exampleStrings() stringTable {
	st := stringTable{idBytes: 2, strs: make([]string, 133)}
	for s, id := range exampleIDs {
		st.strs[id] = s
	}
	return st
}

func TestTableStreamsMatchTheExample(t *testing.T) {
	cases := []struct {
		schema Table
		rows   []Row
		stored string
	}{
		{fileSchema, []Row{
			{"ctrld.exe", "Ctrld", "ctrld.exe", 2450944, "", "", 512, 1},
			{"ctrld_install.exe", "Wrapper", "ctrld-install.exe", 3513344, "", "", 512, 2},
		}, "5b00 5c00 | 3600 3700 | 5b00 5d00 | 0066 2580 009c 3580 | 0000 0000 | 0000 0000 | 0082 0082 | 0100 0080 0200 0080"},
		{customActionSchema, []Row{
			{"UninstallService", 3154, "ctrld_install.exe", "uninstall", nil},
			{"Provision", 11282, "ctrld_install.exe", provisionTarget, nil},
		}, "2700 2b00 | 528c 12ac | 5c00 5c00 | 7600 7500 | 0000 0000 0000 0000"},
		{mediaSchema, []Row{{1, 2, "", "#ctrld.cab", "", ""}}, "0180 | 02000080 | 0000 | 8400 | 0000 | 0000"},
	}
	p := &pool{ids: exampleIDs, idBytes: 2}
	st := exampleStrings()
	for _, c := range cases {
		s, err := newSchema(c.schema)
		if err != nil {
			t.Fatal(err)
		}
		want := unhex(t, c.stored)
		if got := (table{s, c.rows}).encode(p); !bytes.Equal(got, want) {
			t.Errorf("%s: % x\nwant % x", s.name, got, want)
		}
		storage := mapStorage{}
		enc, _ := EncodeName(s.name, true)
		storage[enc] = want
		got, err := (&Reader{storage: storage}).readTable(st, s, storage.loader(), map[string]bool{})
		if err != nil {
			t.Fatal(err)
		}
		s.sortRows(c.rows)
		if !equalRows(got.Rows, c.rows) {
			t.Errorf("%s read as %v", s.name, got.Rows)
		}
	}
}

// exampleSummary holds the spec's example values (§3.3).
func exampleSummary() Summary {
	at := fromFiletime(0x01DD80EA0B397380)
	return Summary{
		Codepage: 1252, Title: "Installation Database", Subject: "Control D (ctrld)", Author: "Control D",
		Keywords: "Installer", Comments: "ctrld, provisioned by ctrld-install", Template: "x64;1033",
		RevisionNumber: "{3F8A8B75-DF69-534A-90B2-B7190E7C1E0C}", Created: at, LastSaved: at,
		PageCount: 500, WordCount: 2, Application: "msitools 0.101", Security: 2,
	}
}

func TestSummaryMatchesThe460ByteExample(t *testing.T) {
	s := exampleSummary()
	if got := s.Created.Format(time.DateTime); got != "2026-11-30 16:44:19" {
		t.Fatalf("example time reads %s", got)
	}
	data, err := s.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if len(data) != 460 {
		t.Fatalf("%d bytes, want 460", len(data))
	}
	for off, want := range map[int]string{
		0x00:  "feff 0000 0500 0200 0000 0000 0000 0000",
		0x10:  "0000 0000 0000 0000 0100 0000 e085 9ff2",
		0x20:  "f94f 6810 ab91 0800 2b27 b3d9 3000 0000",
		0x30:  "9c01 0000 0e00 0000 0100 0000 7800 0000",
		0x40:  "0200 0000 8000 0000 0300 0000 a000 0000 0400 0000 bc00 0000 0500 0000 d000 0000 0600 0000 e400 0000 0700 0000 1001 0000 0900 0000 2401 0000 0c00 0000 5401 0000 0d00 0000 6001 0000 0e00 0000 6c01 0000 0f00 0000 7401 0000 1200 0000 7c01 0000 1300 0000 9401 0000",
		0xa8:  "0200 0000 e404 0000",
		0xb0:  "1e00 0000 1600 0000 496e 7374 616c 6c61 7469 6f6e 2044 6174 6162 6173 6500 0000",
		0x140: "1e00 0000 0900 0000 7836 343b 3130 3333 0000 0000 1e00 0000 2700 0000 7b33 4638",
		0x184: "4000 0000 8073 390b ea80 dd01",
		0x19c: "0300 0000 f401 0000 0300 0000 0200 0000",
		0x1c4: "0300 0000 0200 0000",
	} {
		w := unhex(t, want)
		if got := data[off : off+len(w)]; !bytes.Equal(got, w) {
			t.Errorf("at %#x: % x\nwant % x", off, got, w)
		}
	}
	var back Summary
	if err := back.UnmarshalBinary(data); err != nil || back != s {
		t.Fatalf("read back %+v, %v", back, err)
	}
}

func TestSummaryCorrupt(t *testing.T) {
	good, _ := exampleSummary().MarshalBinary()
	for name, mutate := range map[string]func([]byte) []byte{
		"short":          func(b []byte) []byte { return b[:20] },
		"byte order":     func(b []byte) []byte { b[0] = 0; return b },
		"fmtid":          func(b []byte) []byte { b[0x1c] ^= 1; return b },
		"set offset":     func(b []byte) []byte { b[0x2c] = 0xff; b[0x2d] = 0xff; return b },
		"set size":       func(b []byte) []byte { b[0x31] = 0x7f; return b },
		"property count": func(b []byte) []byte { b[0x34] = 0xff; return b },
		"value offset":   func(b []byte) []byte { b[0x3c] = 0xff; b[0x3d] = 0x7f; return b },
		"string length":  func(b []byte) []byte { b[0xb4] = 0xff; b[0xb5] = 0xff; return b },
		"template type":  func(b []byte) []byte { b[0x140] = 0x03; return b },
	} {
		var s Summary
		if err := s.UnmarshalBinary(mutate(append([]byte(nil), good...))); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
