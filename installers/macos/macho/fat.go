package macho

import (
	"encoding/binary"
	"fmt"
	"io"
)

// Slice is one architecture's thin image, in memory.
type Slice struct {
	CPU, SubCPU uint32
	Data        []byte
}

// IsFat reports whether data starts like a universal binary.
func IsFat(data []byte) bool {
	return len(data) >= 8 && binary.BigEndian.Uint32(data) == fatMagic
}

// Split returns the slices of a universal binary, or the one slice of a
// thin image.
func Split(data []byte) ([]Slice, error) {
	if !IsFat(data) {
		t, err := ParseThin(data)
		if err != nil {
			return nil, err
		}
		return []Slice{{CPU: t.CPU, SubCPU: t.SubCPU, Data: data}}, nil
	}
	n := int(binary.BigEndian.Uint32(data[4:]))
	if 8+n*fatArchLen > len(data) {
		return nil, fmt.Errorf("macho: fat header runs past the end of the file")
	}
	out := make([]Slice, 0, n)
	for i := 0; i < n; i++ {
		a := data[8+i*fatArchLen:]
		off, size := uint64(binary.BigEndian.Uint32(a[8:])), uint64(binary.BigEndian.Uint32(a[12:]))
		if off+size > uint64(len(data)) {
			return nil, fmt.Errorf("macho: slice %d runs past the end of the file", i)
		}
		out = append(out, Slice{CPU: binary.BigEndian.Uint32(a), SubCPU: binary.BigEndian.Uint32(a[4:]), Data: data[off : off+size]})
	}
	return out, nil
}

// MergeSlices writes a universal binary of slices held in memory, laid
// out as Merge lays out files.
func MergeSlices(w io.Writer, in []Slice) error {
	slices := make([]slice, len(in))
	seen := map[uint32]bool{}
	for i, s := range in {
		if seen[s.CPU] {
			return fmt.Errorf("macho: two slices for CPU type %#x", s.CPU)
		}
		seen[s.CPU] = true
		slices[i] = slice{path: fmt.Sprintf("slice %d", i), cpu: s.CPU, subcpu: s.SubCPU, size: int64(len(s.Data)), data: s.Data}
	}
	return writeFat(w, slices)
}
