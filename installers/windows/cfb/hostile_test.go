package cfb

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"testing"
)

// Hostile files are written by the Writer, then patched. The Writer's
// layout is contiguous, which makes the places to patch easy to find.

var le = binary.LittleEndian

func mustHeader(t *testing.T, file []byte) *header {
	t.Helper()
	h, err := parseHeader(file)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// entryAt is directory entry id of a file this package wrote.
func entryAt(t *testing.T, file []byte, id uint32) []byte {
	t.Helper()
	h := mustHeader(t, file)
	off := sectorOffset(h.firstDirSector+id/entriesPerDir, sectorSize) + int64(id%entriesPerDir)*dirEntrySize
	return file[off : off+dirEntrySize]
}

// setFAT overwrites FAT entry n.
func setFAT(t *testing.T, file []byte, n, v uint32) {
	t.Helper()
	h := mustHeader(t, file)
	le.PutUint32(file[sectorOffset(h.difat[n/entriesPerFAT], sectorSize)+4*int64(n%entriesPerFAT):], v)
}

// sampleFile holds, in directory order: 1 "big", 2 "mid" and 3 "tiny" in
// the mini stream, and 4 "small", the one regular stream (sectors 0-9).
func sampleFile(t *testing.T) []byte {
	return build(t, msiCLSID, map[string][]byte{
		"big":   pseudoRandom(1, 1500),
		"mid":   pseudoRandom(2, 900),
		"tiny":  pseudoRandom(3, 100),
		"small": pseudoRandom(4, 5000),
	})
}

func openAll(file []byte) error {
	r, err := NewReader(bytes.NewReader(file), int64(len(file)))
	if err != nil {
		return err
	}
	for _, s := range r.Streams() {
		f, err := r.Open(s.Name)
		if err != nil {
			return err
		}
		if _, err := io.Copy(io.Discard, f); err != nil {
			return err
		}
	}
	return nil
}

func TestHostileFiles(t *testing.T) {
	big := func(t *testing.T, file []byte) {
		if got := le.Uint32(entryAt(t, file, 4)[0x74:]); got != 0 {
			t.Fatalf("sample layout changed: small starts at %d", got)
		}
	}
	for _, tc := range []struct {
		name  string
		patch func(t *testing.T, file []byte) []byte
	}{
		{"FAT chain loops", func(t *testing.T, f []byte) []byte { big(t, f); setFAT(t, f, 5, 2); return f }},
		{"FAT chain loops on itself", func(t *testing.T, f []byte) []byte { big(t, f); setFAT(t, f, 0, 0); return f }},
		{"FAT chain leaves the file", func(t *testing.T, f []byte) []byte { big(t, f); setFAT(t, f, 3, 0x7FFFFFF0); return f }},
		{"FAT chain ends early", func(t *testing.T, f []byte) []byte { big(t, f); setFAT(t, f, 3, endOfChain); return f }},
		{"start sector out of range", func(t *testing.T, f []byte) []byte {
			le.PutUint32(entryAt(t, f, 4)[0x74:], 0xFFFFFF00)
			return f
		}},
		{"mini start out of range", func(t *testing.T, f []byte) []byte {
			le.PutUint32(entryAt(t, f, 3)[0x74:], 5000)
			return f
		}},
		{"size bigger than the file", func(t *testing.T, f []byte) []byte {
			le.PutUint32(entryAt(t, f, 4)[0x78:], 1<<30)
			return f
		}},
		{"mini size grows into a regular one", func(t *testing.T, f []byte) []byte {
			le.PutUint32(entryAt(t, f, 3)[0x78:], 60000)
			return f
		}},
		{"two streams share sectors", func(t *testing.T, f []byte) []byte {
			copy(entryAt(t, f, 2)[0x74:0x80], entryAt(t, f, 4)[0x74:0x80])
			return f
		}},
		{"sibling loops to itself", func(t *testing.T, f []byte) []byte {
			e := entryAt(t, f, 2)
			le.PutUint32(e[0x44:], 2)
			return f
		}},
		{"sibling points at the root", func(t *testing.T, f []byte) []byte {
			le.PutUint32(entryAt(t, f, 1)[0x44:], 0)
			return f
		}},
		{"sibling out of range", func(t *testing.T, f []byte) []byte {
			le.PutUint32(entryAt(t, f, 1)[0x48:], 1000)
			return f
		}},
		{"name length odd", func(t *testing.T, f []byte) []byte {
			le.PutUint16(entryAt(t, f, 1)[0x40:], 7)
			return f
		}},
		{"name length past its field", func(t *testing.T, f []byte) []byte {
			le.PutUint16(entryAt(t, f, 1)[0x40:], 66)
			return f
		}},
		{"root is a stream", func(t *testing.T, f []byte) []byte {
			entryAt(t, f, 0)[0x42] = typeStream
			return f
		}},
		{"FAT sector count past the file", func(t *testing.T, f []byte) []byte {
			le.PutUint32(f[0x2C:], 0xFFFFFFFF)
			return f
		}},
		{"FAT sector listed twice", func(t *testing.T, f []byte) []byte {
			le.PutUint32(f[0x2C:], 2)
			le.PutUint32(f[0x50:], le.Uint32(f[0x4C:]))
			return f
		}},
		{"directory chain loops", func(t *testing.T, f []byte) []byte {
			d := mustHeader(t, f).firstDirSector
			setFAT(t, f, d+1, d)
			return f
		}},
		{"truncated", func(t *testing.T, f []byte) []byte { return f[:len(f)/2] }},
		{"header only", func(t *testing.T, f []byte) []byte { return f[:headerSize] }},
		{"wrong byte order", func(t *testing.T, f []byte) []byte { f[0x1C] = 0xFF; f[0x1D] = 0xFE; return f }},
		{"sector shift 10", func(t *testing.T, f []byte) []byte { f[0x1E] = 10; return f }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := tc.patch(t, sampleFile(t))
			err := openAll(file)
			if !errors.Is(err, ErrCorrupt) {
				t.Errorf("got %v, want ErrCorrupt", err)
			}
			t.Log(err)
		})
	}
}

func TestNotCompoundFile(t *testing.T) {
	for _, file := range [][]byte{nil, []byte("MSCF"), bytes.Repeat([]byte{0}, 4096)} {
		if _, err := NewReader(bytes.NewReader(file), int64(len(file))); !errors.Is(err, ErrNotCompoundFile) {
			t.Errorf("%d bytes: %v", len(file), err)
		}
	}
}

func TestDIFATLoop(t *testing.T) {
	file := build(t, msiCLSID, map[string][]byte{"big": pseudoRandom(1, 8<<20)})
	h := mustHeader(t, file)
	le.PutUint32(file[sectorOffset(h.firstDIFAT, sectorSize)+4*entriesPerDIFAT:], h.firstDIFAT)
	le.PutUint32(file[0x2C:], h.numFATSectors+entriesPerDIFAT)
	if err := openAll(file); !errors.Is(err, ErrCorrupt) {
		t.Errorf("DIFAT chain pointing at itself: %v", err)
	}
}

// TestStoragesSkipped turns a stream into a storage: the Reader lists the
// other streams and does not fail.
func TestStoragesSkipped(t *testing.T) {
	file := sampleFile(t)
	e := entryAt(t, file, 2)
	e[0x42] = typeStorage
	le.PutUint32(e[0x4C:], 3) // its child: an entry also in the root's tree
	r, err := NewReader(bytes.NewReader(file), int64(len(file)))
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(r.Streams()); got != "[{big 1500} {small 5000} {tiny 100}]" {
		t.Errorf("streams %s", got)
	}
}

// TestDeepTree reads a directory whose tree is one long left chain: the
// walk must not recurse per level.
func TestDeepTree(t *testing.T) {
	streams := map[string][]byte{}
	for i := range 3000 {
		streams[fmt.Sprintf("s%04d", i)] = []byte{byte(i)}
	}
	file := build(t, msiCLSID, streams)
	n := uint32(len(streams))
	le.PutUint32(entryAt(t, file, 0)[0x4C:], n)
	for id := uint32(1); id <= n; id++ {
		e := entryAt(t, file, id)
		le.PutUint32(e[0x44:], id-1)
		le.PutUint32(e[0x48:], noStream)
	}
	le.PutUint32(entryAt(t, file, 1)[0x44:], noStream)
	_, got := readAll(t, file)
	if len(got) != len(streams) {
		t.Errorf("read %d streams, want %d", len(got), len(streams))
	}
}

// TestFragmentedChain stores the one regular stream's sectors in reverse
// order: a valid file whose chain is not contiguous.
func TestFragmentedChain(t *testing.T) {
	want := pseudoRandom(4, 5000)
	file := sampleFile(t)
	reversed := bytes.Clone(file)
	for k := uint32(0); k < 10; k++ {
		copy(reversed[sectorOffset(9-k, sectorSize):][:sectorSize], file[sectorOffset(k, sectorSize):][:sectorSize])
		next := uint32(endOfChain)
		if k > 0 {
			next = k - 1
		}
		setFAT(t, reversed, k, next)
	}
	le.PutUint32(entryAt(t, reversed, 4)[0x74:], 9)
	r, err := NewReader(bytes.NewReader(reversed), int64(len(reversed)))
	if err != nil {
		t.Fatal(err)
	}
	f, _ := r.Open("small")
	var got bytes.Buffer
	if _, err := got.ReadFrom(f); err != nil || !bytes.Equal(got.Bytes(), want) {
		t.Errorf("fragmented stream: %v, %d bytes, equal %v", err, got.Len(), bytes.Equal(got.Bytes(), want))
	}
}
