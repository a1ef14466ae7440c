package cab

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"testing"
)

var le = binary.LittleEndian

// sample has one folder of 3 blocks and two files: "a" at CFFILE offset
// 44, "bb" after it.
func sample(t *testing.T) []byte {
	return build(t, []testFile{{"a", textLike(1, blockSize+10)}, {"bb", pseudoRandom(2, blockSize)}})
}

const (
	firstFile   = headerSize + folderSize
	secondFile  = firstFile + fileEntrySize + 2
	firstBlock  = secondFile + fileEntrySize + 3
	folderField = headerSize
)

func extractAll(cab []byte) error {
	r, err := NewReader(bytes.NewReader(cab), int64(len(cab)))
	if err != nil {
		return err
	}
	for _, f := range r.Files() {
		rc, err := f.Open()
		if err != nil {
			return err
		}
		if _, err := io.Copy(io.Discard, rc); err != nil {
			return err
		}
	}
	return nil
}

func TestHostileCabinets(t *testing.T) {
	for _, tc := range []struct {
		name  string
		patch func([]byte) []byte
		want  error
	}{
		{"cbCabinet past the end", func(c []byte) []byte { le.PutUint32(c[8:], uint32(len(c)+1)); return c }, ErrCorrupt},
		{"truncated", func(c []byte) []byte { return c[:len(c)-100] }, ErrCorrupt},
		{"truncated in the blocks", func(c []byte) []byte { le.PutUint32(c[8:], uint32(len(c)-100)); return c[:len(c)-100] }, ErrCorrupt},
		{"truncated in the directory", func(c []byte) []byte { le.PutUint32(c[8:], 50); return c[:50] }, ErrCorrupt},
		{"coffFiles past the end", func(c []byte) []byte { le.PutUint32(c[16:], 1<<30); return c }, ErrCorrupt},
		{"no folders", func(c []byte) []byte { le.PutUint16(c[26:], 0); return c }, ErrCorrupt},
		{"file in a missing folder", func(c []byte) []byte { le.PutUint16(c[secondFile+8:], 1); return c }, ErrUnsupported},
		{"file continued from a previous cabinet", func(c []byte) []byte { le.PutUint16(c[secondFile+8:], 0xFFFD); return c }, ErrUnsupported},
		{"file past its folder's blocks", func(c []byte) []byte { le.PutUint32(c[secondFile:], 1<<20); return c }, ErrCorrupt},
		{"file past the folder's data", func(c []byte) []byte {
			le.PutUint16(c[folderField+4:], 100)
			le.PutUint32(c[secondFile:], 1<<20)
			return c
		}, ErrCorrupt},
		{"name without NUL", func(c []byte) []byte { le.PutUint16(c[28:], 3); return c }, ErrCorrupt},
		{"empty name", func(c []byte) []byte { c[firstFile+fileEntrySize] = 0; return c }, ErrCorrupt},
		{"LZX folder", func(c []byte) []byte { le.PutUint16(c[folderField+6:], 3); return c }, ErrUnsupported},
		{"Quantum folder", func(c []byte) []byte { le.PutUint16(c[folderField+6:], 2); return c }, ErrUnsupported},
		{"cabinet set", func(c []byte) []byte { le.PutUint16(c[30:], flagNextCabinet); return c }, ErrUnsupported},
		{"version 2.0", func(c []byte) []byte { c[25] = 2; c[24] = 0; return c }, ErrUnsupported},
		{"cbData too large", func(c []byte) []byte { le.PutUint16(c[firstBlock+4:], maxCompressed+1); return c }, ErrCorrupt},
		{"cbUncomp too large", func(c []byte) []byte { le.PutUint16(c[firstBlock+6:], blockSize+1); return c }, ErrCorrupt},
		{"checksum", func(c []byte) []byte { c[firstBlock] ^= 1; return c }, ErrChecksum},
		{"no CK", func(c []byte) []byte { c[firstBlock+8] = 'X'; le.PutUint32(c[firstBlock:], 0); return c }, ErrCorrupt},
		{"cbUncomp larger than the block inflates to", func(c []byte) []byte {
			le.PutUint16(c[firstBlock+6:], blockSize-1)
			le.PutUint32(c[firstBlock:], 0)
			return c
		}, ErrCorrupt},
		{"stored folder with mismatched sizes", func(c []byte) []byte {
			le.PutUint16(c[folderField+6:], compressNone)
			return c
		}, ErrCorrupt},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := extractAll(tc.patch(sample(t)))
			if !errors.Is(err, tc.want) {
				t.Errorf("got %v, want %v", err, tc.want)
			}
		})
	}
}

func TestNotCabinet(t *testing.T) {
	for _, b := range [][]byte{nil, []byte("MSCF"), bytes.Repeat([]byte("x"), 100)} {
		if _, err := NewReader(bytes.NewReader(b), int64(len(b))); !errors.Is(err, ErrNotCabinet) {
			t.Errorf("%q: %v", b, err)
		}
	}
}

// TestZeroChecksumAccepted: [MS-CAB] lets csum 0 mean "not computed".
func TestZeroChecksumAccepted(t *testing.T) {
	cab := sample(t)
	le.PutUint32(cab[firstBlock:], 0)
	if err := extractAll(cab); err != nil {
		t.Error(err)
	}
}

// TestReserveFields reads a cabinet with header, folder and data reserve
// areas, made by inserting them into the writer's output.
func TestReserveFields(t *testing.T) {
	files := []testFile{{"a", textLike(1, 100)}}
	plain := build(t, files)
	const headerReserve, folderReserve, dataReserve = 6, 2, 3
	var cab []byte
	cab = append(cab, plain[:headerSize]...)
	le.PutUint16(cab[30:], flagReserve)
	cab = append(cab, headerReserve, 0, folderReserve, dataReserve)
	cab = append(cab, make([]byte, headerReserve)...)
	shift := uint32(4 + headerReserve + folderReserve)
	fo := bytes.Clone(plain[headerSize : headerSize+folderSize])
	le.PutUint32(fo, le.Uint32(fo)+shift)
	cab = append(cab, fo...)
	cab = append(cab, make([]byte, folderReserve)...)
	cab = append(cab, plain[firstFile:firstFile+fileEntrySize+2]...)
	block := plain[firstFile+fileEntrySize+2:]
	cab = append(cab, block[:dataHeader]...)
	cab = append(cab, make([]byte, dataReserve)...)
	cab = append(cab, block[dataHeader:]...)
	le.PutUint32(cab[16:], firstFile+shift)
	le.PutUint32(cab[8:], uint32(len(cab)))
	got := readAll(t, cab)
	if len(got) != 1 || !bytes.Equal(got[0].data, files[0].data) {
		t.Errorf("read %d files", len(got))
	}
}
