package macho

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// Load command numbers and sizes this package reads or writes.
const (
	LCSegment64      = 0x19
	LCCodeSignature  = 0x1d
	HeaderLen        = 32
	segmentCmdLen    = 72
	sectionLen       = 80
	LinkeditCmdLen   = 16
	fileTypeExecute  = 2
	sectionTypeMask  = 0xff
	zeroFillSection  = 0x1
	gbZeroFill       = 0xc
	threadLocalZeros = 0x12
)

// Segment is one LC_SEGMENT_64 command.
type Segment struct {
	Name              string
	CmdOffset         int // where the command starts in the file
	VMAddr, VMSize    uint64
	FileOff, FileSize uint64
}

// LinkeditData is an LC_CODE_SIGNATURE (or another linkedit_data_command).
type LinkeditData struct {
	CmdOffset        int
	DataOff, DataLen uint32
}

// Thin is a 64-bit little-endian Mach-O image, parsed as far as signing
// needs: its header, its segments and its code signature command.
type Thin struct {
	Data        []byte
	CPU, SubCPU uint32
	FileType    uint32
	NCmds       uint32
	SizeOfCmds  uint32
	Segments    []Segment
	Signature   *LinkeditData
	// FirstSection is the lowest file offset any section's bytes start
	// at: the load commands may grow up to it.
	FirstSection uint64
}

// ParseThin reads a thin 64-bit Mach-O image held in memory.
func ParseThin(data []byte) (*Thin, error) {
	if len(data) < HeaderLen || binary.LittleEndian.Uint32(data) != thinMagic {
		return nil, ErrNotMachO
	}
	le := binary.LittleEndian
	t := &Thin{Data: data, CPU: le.Uint32(data[4:]), SubCPU: le.Uint32(data[8:]), FileType: le.Uint32(data[12:]),
		NCmds: le.Uint32(data[16:]), SizeOfCmds: le.Uint32(data[20:]), FirstSection: uint64(len(data))}
	if uint64(HeaderLen)+uint64(t.SizeOfCmds) > uint64(len(data)) {
		return nil, fmt.Errorf("macho: load commands run past the end of the file")
	}
	cmds := data[HeaderLen : HeaderLen+int(t.SizeOfCmds)]
	pos := 0
	for i := uint32(0); i < t.NCmds; i++ {
		if pos+8 > len(cmds) {
			return nil, fmt.Errorf("macho: load command %d runs past sizeofcmds", i)
		}
		cmd, size := le.Uint32(cmds[pos:]), int(le.Uint32(cmds[pos+4:]))
		if size < 8 || pos+size > len(cmds) {
			return nil, fmt.Errorf("macho: load command %d has a bad size %d", i, size)
		}
		if err := t.readCommand(cmd, cmds[pos:pos+size], HeaderLen+pos); err != nil {
			return nil, err
		}
		pos += size
	}
	return t, nil
}

func (t *Thin) readCommand(cmd uint32, b []byte, at int) error {
	le := binary.LittleEndian
	switch cmd {
	case LCSegment64:
		if len(b) < segmentCmdLen {
			return fmt.Errorf("macho: short segment command")
		}
		s := Segment{Name: string(bytes.TrimRight(b[8:24], "\x00")), CmdOffset: at,
			VMAddr: le.Uint64(b[24:]), VMSize: le.Uint64(b[32:]), FileOff: le.Uint64(b[40:]), FileSize: le.Uint64(b[48:])}
		if s.FileOff+s.FileSize > uint64(len(t.Data)) {
			return fmt.Errorf("macho: segment %s runs past the end of the file", s.Name)
		}
		t.Segments = append(t.Segments, s)
		t.readSections(b[segmentCmdLen:], le.Uint32(b[64:]))
	case LCCodeSignature:
		if len(b) < LinkeditCmdLen {
			return fmt.Errorf("macho: short LC_CODE_SIGNATURE")
		}
		sig := &LinkeditData{CmdOffset: at, DataOff: le.Uint32(b[8:]), DataLen: le.Uint32(b[12:])}
		if uint64(sig.DataOff)+uint64(sig.DataLen) > uint64(len(t.Data)) {
			return fmt.Errorf("macho: the code signature runs past the end of the file")
		}
		t.Signature = sig
	}
	return nil
}

func (t *Thin) readSections(b []byte, n uint32) {
	le := binary.LittleEndian
	for i := 0; i < int(n) && (i+1)*sectionLen <= len(b); i++ {
		s := b[i*sectionLen:]
		offset, kind := uint64(le.Uint32(s[48:])), le.Uint32(s[64:])&sectionTypeMask
		if offset == 0 || kind == zeroFillSection || kind == gbZeroFill || kind == threadLocalZeros {
			continue
		}
		t.FirstSection = min(t.FirstSection, offset)
	}
}

// Segment finds a segment by name.
func (t *Thin) Segment(name string) (Segment, bool) {
	for _, s := range t.Segments {
		if s.Name == name {
			return s, true
		}
	}
	return Segment{}, false
}

// IsExecutable reports whether the image is a main executable
// (MH_EXECUTE).
func (t *Thin) IsExecutable() bool { return t.FileType == fileTypeExecute }

// PageSize is the VM page size the image's CPU uses.
func (t *Thin) PageSize() uint64 { return 1 << alignment(t.CPU) }
