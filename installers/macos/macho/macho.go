// Package macho reads what code signing needs of a thin 64-bit Mach-O
// image (its header, segments and LC_CODE_SIGNATURE), splits universal
// ("fat") binaries into their slices, and merges thin images into one
// universal binary as lipo -create does, streaming each slice.
package macho

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
)

const (
	fatMagic   = 0xCAFEBABE
	thinMagic  = 0xFEEDFACF // 64-bit, read little-endian
	fatArchLen = 20
)

// CPU types of the slices we ship.
const (
	CPUTypeX86_64 = 0x01000007
	CPUTypeARM64  = 0x0100000C
)

// alignment is a power of two: the page size each architecture uses, as
// Apple's tools lay slices out.
func alignment(cpu uint32) uint32 {
	if cpu == CPUTypeARM64 {
		return 14
	}
	return 12
}

// ErrNotMachO means an input is not a thin 64-bit Mach-O file.
var ErrNotMachO = errors.New("macho: not a thin 64-bit Mach-O file")

type slice struct {
	path        string
	cpu, subcpu uint32
	size        int64
	offset      int64
	data        []byte // in memory, when path is not a file
}

// Merge writes a universal binary holding the thin Mach-O files at paths,
// ordered by CPU type. Two slices of one CPU type are an error.
func Merge(w io.Writer, paths ...string) error {
	slices, err := inspect(paths)
	if err != nil {
		return err
	}
	return writeFat(w, slices)
}

func writeFat(w io.Writer, slices []slice) error {
	sort.Slice(slices, func(i, j int) bool { return slices[i].cpu < slices[j].cpu })
	layout(slices)
	if err := writeFatHeader(w, slices); err != nil {
		return err
	}
	pos := int64(8 + fatArchLen*len(slices))
	for _, s := range slices {
		if _, err := w.Write(make([]byte, s.offset-pos)); err != nil {
			return err
		}
		if err := s.copyTo(w); err != nil {
			return err
		}
		pos = s.offset + s.size
	}
	return nil
}

func inspect(paths []string) ([]slice, error) {
	var out []slice
	seen := map[uint32]bool{}
	for _, p := range paths {
		s, err := readThin(p)
		if err != nil {
			return nil, err
		}
		if seen[s.cpu] {
			return nil, fmt.Errorf("macho: two slices for CPU type %#x", s.cpu)
		}
		seen[s.cpu] = true
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].cpu < out[j].cpu })
	return out, nil
}

func readThin(path string) (slice, error) {
	f, err := os.Open(path)
	if err != nil {
		return slice{}, err
	}
	defer f.Close()
	hdr := make([]byte, 12)
	if _, err := io.ReadFull(f, hdr); err != nil || binary.LittleEndian.Uint32(hdr) != thinMagic {
		return slice{}, fmt.Errorf("%w: %s", ErrNotMachO, path)
	}
	info, err := f.Stat()
	if err != nil {
		return slice{}, err
	}
	return slice{path: path, cpu: binary.LittleEndian.Uint32(hdr[4:]), subcpu: binary.LittleEndian.Uint32(hdr[8:]), size: info.Size()}, nil
}

func layout(slices []slice) {
	pos := int64(8 + fatArchLen*len(slices))
	for i := range slices {
		a := int64(1) << alignment(slices[i].cpu)
		pos = (pos + a - 1) / a * a
		slices[i].offset = pos
		pos += slices[i].size
	}
}

func writeFatHeader(w io.Writer, slices []slice) error {
	out := binary.BigEndian.AppendUint32(nil, fatMagic)
	out = binary.BigEndian.AppendUint32(out, uint32(len(slices)))
	for _, s := range slices {
		if s.offset > 1<<32-1 || s.size > 1<<32-1 {
			return fmt.Errorf("macho: %s too large for a 32-bit fat header", s.path)
		}
		for _, v := range []uint32{s.cpu, s.subcpu, uint32(s.offset), uint32(s.size), alignment(s.cpu)} {
			out = binary.BigEndian.AppendUint32(out, v)
		}
	}
	_, err := w.Write(out)
	return err
}

func (s slice) copyTo(w io.Writer) error {
	if s.data != nil {
		_, err := w.Write(s.data)
		return err
	}
	return copyFile(w, s.path, s.size)
}

func copyFile(w io.Writer, path string, size int64) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	n, err := io.Copy(w, f)
	if err == nil && n != size {
		err = fmt.Errorf("macho: %s changed size while being read", path)
	}
	return err
}
