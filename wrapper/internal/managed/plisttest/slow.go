package plisttest

import (
	"encoding/binary"
	"strings"
)

// The files below cost a reader that checks every object, visiting an
// object as often as the offset table names it, time quadratic in their
// size. They use one-byte references, so the cap holds as many as it can.

// refFile writes a bplist00 file with one-byte references and offsets of
// offsetSize bytes.
type refFile struct {
	offsetSize int
	data       []byte
	offsets    []uint64
}

func newRefFile(offsetSize int) *refFile {
	return &refFile{offsetSize: offsetSize, data: []byte("bplist00")}
}

// add appends an object and returns its reference.
func (f *refFile) add(obj []byte) byte {
	f.offsets = append(f.offsets, uint64(len(f.data)))
	f.data = append(f.data, obj...)
	return byte(len(f.offsets) - 1)
}

// room is how many more offset-table entries the cap leaves.
func (f *refFile) room() int {
	return (Limit-len(f.data)-32)/f.offsetSize - len(f.offsets)
}

func (f *refFile) bytes(top byte) []byte {
	table := len(f.data)
	out := f.data
	for _, off := range f.offsets {
		var b [8]byte
		binary.BigEndian.PutUint64(b[:], off)
		out = append(out, b[8-f.offsetSize:]...)
	}
	trailer := make([]byte, 32)
	trailer[6], trailer[7] = byte(f.offsetSize), 1
	binary.BigEndian.PutUint64(trailer[8:], uint64(len(f.offsets)))
	binary.BigEndian.PutUint64(trailer[16:], uint64(top))
	binary.BigEndian.PutUint64(trailer[24:], uint64(table))
	return append(out, trailer...)
}

// withTokenDict starts a file with its top dictionary: ProvisionToken,
// then a Bomb key whose value is the next object added.
func withTokenDict(token string, offsetSize int) (f *refFile, top byte) {
	f = newRefFile(offsetSize)
	k1, v1 := f.add(ASCII("ProvisionToken")), f.add(ASCII(token))
	k2 := f.add(ASCII("Bomb"))
	bomb := byte(len(f.offsets) + 1)
	return f, f.add(sized(0xd0, 2, []byte{k1, k2, v1, bomb}))
}

// arrayHead starts an array of n one-byte references, its count a
// four-byte integer object.
func arrayHead(n int) []byte {
	head := []byte{0xaf, 0x12, 0, 0, 0, 0}
	binary.BigEndian.PutUint32(head[2:], uint32(n))
	return head
}

// SharedOffsets is one array of half the cap's references, named by as
// many offset-table entries as the other half holds: a reader that checks
// each entry's object reads the whole array every time.
func SharedOffsets(token string) []byte {
	f, top := withTokenDict(token, 1)
	n := Limit / 2
	array := f.add(append(arrayHead(n), make([]byte, n)...))
	for range f.room() {
		f.offsets = append(f.offsets, f.offsets[array])
	}
	return f.bytes(top)
}

// OverlappingArrays is a run of array heads, each claiming as many
// references as the run holds after the last head the table names: every
// head reads as an array whose references are the heads after it. A
// reader that checks each distinct object once still reads most of the
// run for each head.
func OverlappingArrays(token string) []byte {
	const offsetSize = 4
	f, top := withTokenDict(token, offsetSize)
	// heads are named, each with an offset of offsetSize bytes; the run
	// repeats one head, so every head claims the same count.
	heads := Limit / 5 / offsetSize
	runLen := Limit - len(f.data) - 32 - offsetSize*(len(f.offsets)+heads) - 64
	head := arrayHead(runLen - len(arrayHead(0))*heads - len(arrayHead(0)))
	start := len(f.data)
	f.data = append(f.data, []byte(strings.Repeat(string(head), runLen/len(head)))...)
	for i := range heads {
		f.offsets = append(f.offsets, uint64(start+i*len(head)))
	}
	return f.bytes(top)
}
