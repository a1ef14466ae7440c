package cfb

import (
	"bytes"
	"encoding/binary"
	"slices"
	"testing"
	"unicode/utf16"
)

// v4File lays out, by hand, a version 4 file (4096-byte sectors) holding
// one regular stream and one mini stream: sector 0-1 "big", sector 2 the
// mini stream, 3 the mini FAT, 4 the directory, 5 the FAT.
func v4File(big, small []byte) []byte {
	const size = 4096
	le := binary.LittleEndian
	h := &header{
		majorVersion: 4, sectorShift: 12, miniSectorShift: miniSectorShift,
		numDirSectors: 1, numFATSectors: 1, firstDirSector: 4, miniCutoff: miniCutoff,
		firstMiniFAT: 3, numMiniFAT: 1, firstDIFAT: endOfChain,
	}
	for i := range h.difat {
		h.difat[i] = freeSect
	}
	h.difat[0] = 5
	file := make([]byte, size*7)
	copy(file, h.marshal())
	sector := func(n int) []byte { return file[(n+1)*size : (n+2)*size] }
	copy(file[size:], big)
	copy(sector(2), small)
	miniSectors := ceilDiv64(int64(len(small)), miniSectorSize)
	for i := int64(0); i < size/4; i++ {
		v := uint32(freeSect)
		switch {
		case i < miniSectors-1:
			v = uint32(i + 1)
		case i == miniSectors-1:
			v = endOfChain
		}
		le.PutUint32(sector(3)[4*i:], v)
	}
	entries := []dirEntry{
		{name: utf16.Encode([]rune(rootName)), objectType: typeRoot, color: colorBlack, left: noStream, right: noStream, child: 1, start: 2, size: uint64(miniSectors * miniSectorSize), clsid: msiCLSID},
		{name: utf16.Encode([]rune("big")), objectType: typeStream, color: colorBlack, left: noStream, right: 2, child: noStream, start: 0, size: uint64(len(big))},
		{name: utf16.Encode([]rune("small")), objectType: typeStream, color: colorBlack, left: noStream, right: noStream, child: noStream, start: 0, size: uint64(len(small))},
	}
	for i := range entries {
		entries[i].marshal(sector(4)[i*dirEntrySize:])
	}
	for i := 3; i < size/dirEntrySize; i++ {
		e := unusedEntry()
		e.marshal(sector(4)[i*dirEntrySize:])
	}
	fat := []uint32{1, endOfChain, endOfChain, endOfChain, endOfChain, fatSect}
	for i := 0; i < size/4; i++ {
		v := uint32(freeSect)
		if i < len(fat) {
			v = fat[i]
		}
		le.PutUint32(sector(5)[4*i:], v)
	}
	return file
}

func TestReadVersion4(t *testing.T) {
	big, small := pseudoRandom(1, 6000), pseudoRandom(2, 300)
	file := v4File(big, small)
	r, got := readAll(t, file)
	if r.RootCLSID() != msiCLSID {
		t.Errorf("root CLSID %x", r.RootCLSID())
	}
	if got := r.Streams(); !slices.Equal(got, []Stream{{"big", 6000}, {"small", 300}}) {
		t.Errorf("streams %v", got)
	}
	if !bytes.Equal(got["big"], big) || !bytes.Equal(got["small"], small) {
		t.Error("version 4 stream bytes differ")
	}
	// olefile confirms the hand-made file is a valid version 4 file.
	requireOlefile(t)
	if out := olefileListing(t, file); out != expectedListing("000C1084-0000-0000-C000-000000000046", got) {
		t.Errorf("olefile reads the hand-made v4 file differently:\n%s", out)
	}
}
