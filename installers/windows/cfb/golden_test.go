package cfb

import (
	"bytes"
	"slices"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// The first 0x60 bytes of the example package (spec 1.2).
const exampleHeader = `
00000000: d0cf 11e0 a1b1 1ae1 0000 0000 0000 0000   signature, CLSID(0)
00000010: 0000 0000 0000 0000 3e00 0300 feff 0900   CLSID(0)
00000020: 0600 0000 0000 0000 0000 0000 2800 0000   mini shift 6
00000030: a213 0000 0000 0000 0010 0000 a113 0000   first dir 5026
00000040: 0100 0000 feff ffff 0000 0000 a913 0000   #miniFAT 1
00000050: aa13 0000 ab13 0000 ac13 0000 ad13 0000   DIFAT[1..4]
`

// exampleStreams are the example's streams (spec 1.6): stored name units
// and sizes.
var exampleStreams = []struct {
	units []rune
	size  int64
}{
	{[]rune{0x4840, 0x3F3F, 0x4577, 0x446C, 0x3B6A, 0x45E4, 0x4824}, 2591},
	{[]rune{0x4840, 0x3F3F, 0x4577, 0x446C, 0x3E6A, 0x44B2, 0x482F}, 836},
	{[]rune{0x45E6, 0x43F5, 0x47A7, 0x4126, 0x4825}, 2566139},
	{[]rune("\x05SummaryInformation"), 460},
	{[]rune{0x4840, 0x4452, 0x45F6, 0x43E4, 0x3BAF, 0x423B, 0x4626, 0x4237, 0x421C, 0x4634, 0x4468, 0x4226}, 138},
	{[]rune{0x4840, 0x41CA, 0x45F9, 0x46CE, 0x41A8, 0x45F8, 0x3F28, 0x4528, 0x4238, 0x41B1, 0x4828}, 42},
	{[]rune{0x4840, 0x41CA, 0x4330, 0x3BB1, 0x423B, 0x4626, 0x4237, 0x421C, 0x4634, 0x4468, 0x4226}, 48},
	{[]rune{0x4840, 0x4452, 0x45F6, 0x43E4, 0x3FAF, 0x3F12, 0x4528, 0x4238, 0x41B1, 0x4828}, 48},
	{[]rune{0x4840, 0x420F, 0x45E4, 0x4578, 0x3B28, 0x4432, 0x44B3, 0x4231, 0x45F1, 0x4836}, 8},
	{[]rune{0x4840, 0x41CA, 0x4330, 0x3FB1, 0x3F12, 0x4528, 0x4238, 0x41B1, 0x4828}, 24},
	{[]rune{0x4840, 0x4115, 0x4478, 0x42E6, 0x448C, 0x41F1, 0x45EC, 0x44AC, 0x4831}, 4},
	{[]rune{0x4840, 0x460C, 0x45F6, 0x4432, 0x418A, 0x4337, 0x4472}, 24},
	{[]rune{0x4840, 0x4596, 0x3BEC, 0x43EC, 0x3C68, 0x45A4, 0x482B}, 40},
	{[]rune{0x4840, 0x448C, 0x44F0, 0x4472, 0x4468, 0x4837}, 24},
	{[]rune{0x4840, 0x430D, 0x4235, 0x45E6, 0x4572, 0x483C}, 18},
	{[]rune{0x4840, 0x421B, 0x44B0, 0x4239, 0x430F, 0x422F}, 30},
	{[]rune{0x4840, 0x4559, 0x44F2, 0x4568, 0x4737}, 36},
	{[]rune{0x4840, 0x44DE, 0x456A, 0x41E4, 0x4828}, 32},
	{[]rune{0x4840, 0x421B, 0x432A, 0x45F6, 0x4735}, 24},
	{[]rune{0x4840, 0x420F, 0x45E4, 0x4578, 0x4828}, 16},
	{[]rune{0x4840, 0x3F7F, 0x4164, 0x422F, 0x4836}, 56},
	{[]rune{0x4840, 0x3B3F, 0x43F2, 0x4438, 0x45B1}, 1120},
	{[]rune{0x4840, 0x4216, 0x4327, 0x4824}, 14},
	{[]rune{0x4840, 0x430F, 0x422F}, 40},
}

// exampleOrder is the example's sibling chain (spec 1.6), which lists the
// entries (by the ids above, 1-based) in the order of [MS-CFB] 2.6.4.
var exampleOrder = []int{24, 23, 3, 22, 21, 20, 19, 18, 17, 16, 15, 14, 1, 2, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4}

func TestNameOrderMatchesExample(t *testing.T) {
	ids := make([]int, len(exampleStreams))
	for i := range ids {
		ids[i] = i + 1
	}
	units := func(id int) []uint16 {
		u, err := encodeName(string(exampleStreams[id-1].units))
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	slices.SortFunc(ids, func(a, b int) int { return compareNames(units(a), units(b)) })
	if !slices.Equal(ids, exampleOrder) {
		t.Errorf("sorted ids %v\nwant example chain %v", ids, exampleOrder)
	}
}

func TestCompareNames(t *testing.T) {
	u := func(s string) []uint16 { e, _ := encodeName(s); return e }
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"b", "aa", -1},
		{"abc", "ABC", 0},
		{"abc", "ABD", -1},
		{"é", "É", 0},
		{"_", "a", 1}, // 'a' folds to 'A' (0x41), which is below '_' (0x5F)
		{"\x05Summary", "\x05SUMMARY", 0},
	} {
		if got := compareNames(u(tc.a), u(tc.b)); got != tc.want {
			t.Errorf("compareNames(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

// exampleFile writes a file with the example's stream names and sizes.
func exampleFile(t *testing.T) []byte {
	t.Helper()
	streams := map[string][]byte{}
	for i, s := range exampleStreams {
		streams[string(s.units)] = pseudoRandom(uint64(i), int(s.size))
	}
	return build(t, msiCLSID, streams)
}

// TestLayoutMatchesExample writes streams of the example's sizes: the
// layout (spec 1.7) puts the FAT, mini FAT and directory where the
// example has them, so the header is byte for byte the example's.
func TestLayoutMatchesExample(t *testing.T) {
	file := exampleFile(t)
	if len(file) != 2597888 {
		t.Errorf("file is %d bytes, example is 2597888", len(file))
	}
	want := testenv.Unhex(t, exampleHeader)
	if !bytes.Equal(file[:len(want)], want) {
		t.Errorf("header\n got %x\nwant %x", file[:len(want)], want)
	}
	h, err := parseHeader(file)
	if err != nil {
		t.Fatal(err)
	}
	for i := range h.difat {
		want := uint32(freeSect)
		if i < 40 {
			want = 5033 + uint32(i)
		}
		if h.difat[i] != want {
			t.Fatalf("DIFAT[%d] = %#x, want %#x", i, h.difat[i], want)
		}
	}
	root := file[sectorOffset(5026, sectorSize):][:dirEntrySize]
	wantRoot := testenv.Unhex(t, exampleRoot)
	// The example's root points at a chain; this writer's at a balanced tree.
	copy(root[0x4C:0x50], wantRoot[0x4C:0x50])
	if !bytes.Equal(root, wantRoot) {
		t.Errorf("root entry\n got %x\nwant %x", root, wantRoot)
	}
}

// The example's root entry (spec 1.4), zeros spelled out.
const exampleRoot = `
00274600: 5200 6f00 6f00 7400 2000 4500 6e00 7400  "Root Entry"
00274610: 7200 7900 0000 0000 0000 0000 0000 0000
00274620: 0000 0000 0000 0000 0000 0000 0000 0000
00274630: 0000 0000 0000 0000 0000 0000 0000 0000
00274640: 1600 0501 ffff ffff ffff ffff 1800 0000  namelen 22, type 5
00274650: 8410 0c00 0000 0000 c000 0000 0000 0046  CLSID
00274660: 0000 0000 0000 0000 0000 0000 0000 0000  state 0, ctime 0
00274670: 0000 0000 9413 0000 8019 0000 0000 0000  mtime 0 | start 5012 | size 6528
`

// The example's entry 24, "!File" (spec 1.4).
const exampleFileEntry = `
00275200: 4048 0f43 2f42 0000 0000 0000 0000 0000
00275210: 0000 0000 0000 0000 0000 0000 0000 0000
00275220: 0000 0000 0000 0000 0000 0000 0000 0000
00275230: 0000 0000 0000 0000 0000 0000 0000 0000
00275240: 0800 0201 ffff ffff 1700 0000 ffff ffff  namelen 8, stream, black, R=23
00275250: 0000 0000 0000 0000 0000 0000 0000 0000
00275260: 0000 0000 0000 0000 0000 0000 0000 0000
00275270: 0000 0000 6500 0000 2800 0000 0000 0000  start 101, size 40
`

func TestDirEntryBytesMatchExample(t *testing.T) {
	want := testenv.Unhex(t, exampleFileEntry)
	e := dirEntry{
		name: []uint16{0x4840, 0x430F, 0x422F}, objectType: typeStream, color: colorBlack,
		left: noStream, right: 23, child: noStream, start: 101, size: 40,
	}
	got := make([]byte, dirEntrySize)
	e.marshal(got)
	if !bytes.Equal(got, want) {
		t.Errorf("entry\n got %x\nwant %x", got, want)
	}
	back, err := parseDirEntry(want, 3)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(back.name, e.name) || back.right != 23 || back.start != 101 || back.size != 40 || back.objectType != typeStream {
		t.Errorf("parsed %+v", back)
	}
}

func TestFATSize(t *testing.T) {
	for _, tc := range []struct{ data, fat, difat uint32 }{
		{5033, 40, 0}, // the example: sectors 0-5032 before the FAT
		{1, 1, 0},     // one data sector and the FAT sector itself
		{127, 1, 0},   // 127 + 1 = 128 entries
		{128, 2, 0},   // one more needs a second FAT sector
		{109*128 - 109, 109, 0},
		{109*128 - 108, 110, 1}, // past the header's slots: one DIFAT sector
	} {
		fat, difat := fatSize(tc.data)
		if fat != tc.fat || difat != tc.difat {
			t.Errorf("fatSize(%d) = %d, %d; want %d, %d", tc.data, fat, difat, tc.fat, tc.difat)
		}
	}
}
