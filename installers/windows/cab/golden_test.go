package cab

import (
	"bytes"
	"encoding/binary"
	"io"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// The example cabinet's first 0x78 bytes (spec 4.6).
const exampleCabinet = `
0000: 4d53 4346 0000 0000 fb27 2700 0000 0000   "MSCF" | res | cbCabinet
0010: 2c00 0000 0000 0000 0301 0100 0200 0000   coffFiles 44
0020: 0000 0000 6800 0000 b700 0100 0066 2500   setID 0, iCab 0 | CFFOLDER
0030: 0000 0000 0000 7e5d 8985 2000 6374 726c   uoff 0
0040: 642e 6578 6500 009c 3500 0066 2500 0000   d.exe
0050: 7e5d 8985 2000 6374 726c 645f 696e 7374   date, time, attr
0060: 616c 6c2e 6578 6500 4dd8 c69a 583d 0080   | CFDATA 0
0070: 434b ed7d 797c 54e5                        "CK" + deflate
`

// exampleTime is the example's CFFILE date 0x5D7E, time 0x8589.
var exampleTime = time.Date(2026, 11, 30, 16, 44, 18, 0, time.UTC)

func TestDOSDateTimeMatchesExample(t *testing.T) {
	date, clock, err := dosDateTime(exampleTime)
	if err != nil || date != 0x5D7E || clock != 0x8589 {
		t.Errorf("dosDateTime = %#x, %#x, %v; want 0x5d7e, 0x8589", date, clock, err)
	}
	if got := fromDOS(0x5D7E, 0x8589); !got.Equal(exampleTime) {
		t.Errorf("fromDOS = %v", got)
	}
	if got, _, _ := dosDateTime(exampleTime.Add(time.Second)); got != 0x5D7E {
		t.Errorf("odd second changed the date: %#x", got)
	}
}

// TestDirectoryMatchesExample encodes the example's header, folder and
// file entries from their decoded values.
func TestDirectoryMatchesExample(t *testing.T) {
	want := testenv.Unhex(t, exampleCabinet)
	var got []byte
	got = append(got, cabHeader{size: 2566139, filesAt: 44, folders: 1, files: 2}.marshal()...)
	got = append(got, folder{dataAt: 104, blocks: 183, compression: compressMSZIP}.marshal()...)
	got = append(got, fileEntry{size: 2450944, date: 0x5D7E, time: 0x8589, attributes: 0x20, name: "ctrld.exe"}.marshal()...)
	got = append(got, fileEntry{size: 3513344, offset: 2450944, date: 0x5D7E, time: 0x8589, attributes: 0x20, name: "ctrld_install.exe"}.marshal()...)
	if !bytes.Equal(got, want[:104]) {
		t.Errorf("directory\n got %x\nwant %x", got, want[:104])
	}
	block := want[104:]
	if sum := binary.LittleEndian.Uint32(block); sum != 0x9AC6D84D {
		t.Errorf("example csum read as %#x", sum)
	}
	if c, u := binary.LittleEndian.Uint16(block[4:]), binary.LittleEndian.Uint16(block[6:]); c != 15704 || u != 32768 {
		t.Errorf("example block sizes %d/%d", c, u)
	}
}

// TestWriterMatchesExample writes files of the example's names, sizes and
// date: everything up to the first CFDATA is the example's, but for
// cbCabinet, which depends on how well the data compresses.
func TestWriterMatchesExample(t *testing.T) {
	var out bytes.Buffer
	w := NewWriter(&out)
	for i, f := range []struct {
		name string
		size int
	}{{"ctrld.exe", 2450944}, {"ctrld_install.exe", 3513344}} {
		fw, err := w.Create(FileHeader{Name: f.name, Size: int64(f.size), Modified: exampleTime, Attributes: 0x20})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fw.Write(textLike(uint64(i), f.size)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got := out.Bytes()
	want := testenv.Unhex(t, exampleCabinet)[:104]
	binary.LittleEndian.PutUint32(want[8:], uint32(len(got)))
	if !bytes.Equal(got[:104], want) {
		t.Errorf("writer directory\n got %x\nwant %x", got[:104], want)
	}
	if !bytes.Equal(got[104+8:104+10], mszipMagic[:]) {
		t.Errorf("first block does not start with CK: %x", got[104:112])
	}
}

func TestChecksum(t *testing.T) {
	for _, tc := range []struct {
		data []byte
		want uint32
	}{
		{nil, 0},
		{[]byte{0x01, 0x02, 0x03, 0x04}, 0x04030201},
		{[]byte{0x01, 0x02, 0x03, 0x04, 0x05}, 0x04030201 ^ 0x05},
		{[]byte{0x01, 0x02, 0x03, 0x04, 0x05, 0x06}, 0x04030201 ^ 0x0506},
		{[]byte{0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07}, 0x04030201 ^ 0x050607},
		{[]byte{0xFF, 0x00, 0x00, 0x00, 0x0F, 0x00, 0x00, 0x00}, 0xF0},
	} {
		if got := checksum(tc.data, 0); got != tc.want {
			t.Errorf("checksum(%x) = %#x, want %#x", tc.data, got, tc.want)
		}
	}
	// Seven data bytes, cbData = cbUncomp = 7: the data part is 0x04060406,
	// and the header part XORs in the u32 07 00 07 00.
	if got := blockChecksum([]byte{1, 2, 3, 4, 5, 6, 7}, 7, 7); got != 0x04060406^0x00070007 {
		t.Errorf("blockChecksum = %#x", got)
	}
}

// TestBlocksCarryChecksums checks the writer's csum fields against an
// independent recomputation, block by block.
func TestBlocksCarryChecksums(t *testing.T) {
	cab := build(t, []testFile{{"a", textLike(1, 3*blockSize+5)}, {"b", pseudoRandom(2, blockSize)}})
	r := bytes.NewReader(cab)
	dataAt := binary.LittleEndian.Uint32(cab[headerSize:])
	blocks := binary.LittleEndian.Uint16(cab[headerSize+4:])
	if blocks != 5 {
		t.Fatalf("%d blocks, want 5", blocks)
	}
	r.Seek(int64(dataAt), io.SeekStart)
	for i := range blocks {
		var head [dataHeader]byte
		io.ReadFull(r, head[:])
		data := make([]byte, binary.LittleEndian.Uint16(head[4:]))
		io.ReadFull(r, data)
		// The data part, then the four size bytes of the header.
		want := checksum(head[4:8], checksum(data, 0))
		if got := binary.LittleEndian.Uint32(head[:]); got != want || got == 0 {
			t.Errorf("block %d csum %#x, want %#x", i, got, want)
		}
	}
	if r.Len() != 0 {
		t.Errorf("%d bytes after the last block", r.Len())
	}
}
