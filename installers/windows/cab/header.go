// Package cab reads and writes Microsoft cabinet files (MS-CAB): one
// folder, MSZIP-compressed CFDATA blocks with real checksums, the format
// of the cabinet embedded in a Windows Installer package. The writer
// emits only blocks the strictest decoder reads (libmspack's, which
// refuses an incomplete Huffman code), checking each before it is
// written.
package cab

import (
	"encoding/binary"
	"errors"
	"fmt"
)

const (
	headerSize    = 36
	folderSize    = 8
	fileEntrySize = 16
	dataHeader    = 8
	versionMinor  = 3
	versionMajor  = 1
	maxName       = 256 // bytes, without the NUL
	// blockSize is what every CFDATA block but the last expands to.
	blockSize = 32768
	// maxCompressed is the largest cbData [MS-MCI] allows for MSZIP.
	maxCompressed = blockSize + 12
	maxCount      = 0xFFFF
)

var signature = [4]byte{'M', 'S', 'C', 'F'}

// Header flags ([MS-CAB] 2.1).
const (
	flagPrevCabinet = 0x1
	flagNextCabinet = 0x2
	flagReserve     = 0x4
)

// Compression types of a folder.
const (
	compressNone  = 0
	compressMSZIP = 1
	compressMask  = 0x000F
)

// AttrNameUTF8 marks a CFFILE name as UTF-8; the writer sets it for names
// that are not ASCII.
const AttrNameUTF8 = 0x80

// Errors of the writer and reader.
var (
	ErrNotCabinet  = errors.New("cab: not a cabinet file")
	ErrCorrupt     = errors.New("cab: corrupt cabinet")
	ErrUnsupported = errors.New("cab: unsupported cabinet feature")
	ErrChecksum    = errors.New("cab: CFDATA checksum mismatch")
	ErrInvalidName = errors.New("cab: invalid file name")
	ErrInvalidTime = errors.New("cab: modified time not representable")
	ErrSize        = errors.New("cab: file data does not match its size")
	ErrTooLarge    = errors.New("cab: cabinet too large")
	ErrClosed      = errors.New("cab: writer closed")
)

func corrupt(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrCorrupt, fmt.Sprintf(format, args...))
}

// cabHeader is CFHEADER without its reserved and constant fields.
type cabHeader struct {
	size      uint32 // cbCabinet
	filesAt   uint32 // coffFiles
	folders   uint16
	files     uint16
	flags     uint16
	setID     uint16
	cabinetNo uint16
}

func (h cabHeader) marshal() []byte {
	b := make([]byte, headerSize)
	le := binary.LittleEndian
	copy(b, signature[:])
	le.PutUint32(b[8:], h.size)
	le.PutUint32(b[16:], h.filesAt)
	b[24] = versionMinor
	b[25] = versionMajor
	le.PutUint16(b[26:], h.folders)
	le.PutUint16(b[28:], h.files)
	le.PutUint16(b[30:], h.flags)
	le.PutUint16(b[32:], h.setID)
	le.PutUint16(b[34:], h.cabinetNo)
	return b
}

func parseHeader(b []byte) (cabHeader, error) {
	if len(b) < headerSize || [4]byte(b[:4]) != signature {
		return cabHeader{}, ErrNotCabinet
	}
	le := binary.LittleEndian
	h := cabHeader{
		size:      le.Uint32(b[8:]),
		filesAt:   le.Uint32(b[16:]),
		folders:   le.Uint16(b[26:]),
		files:     le.Uint16(b[28:]),
		flags:     le.Uint16(b[30:]),
		setID:     le.Uint16(b[32:]),
		cabinetNo: le.Uint16(b[34:]),
	}
	if b[25] != versionMajor || b[24] != versionMinor {
		return h, fmt.Errorf("%w: version %d.%d", ErrUnsupported, b[25], b[24])
	}
	return h, nil
}

// folder is CFFOLDER.
type folder struct {
	dataAt      uint32 // coffCabStart
	blocks      uint16 // cCFData
	compression uint16 // typeCompress
}

func (f folder) marshal() []byte {
	b := make([]byte, folderSize)
	binary.LittleEndian.PutUint32(b, f.dataAt)
	binary.LittleEndian.PutUint16(b[4:], f.blocks)
	binary.LittleEndian.PutUint16(b[6:], f.compression)
	return b
}

// fileEntry is CFFILE.
type fileEntry struct {
	size       uint32
	offset     uint32 // uoffFolderStart
	folder     uint16
	date, time uint16
	attributes uint16
	name       string
}

func (f fileEntry) marshal() []byte {
	b := make([]byte, fileEntrySize, fileEntrySize+len(f.name)+1)
	le := binary.LittleEndian
	le.PutUint32(b, f.size)
	le.PutUint32(b[4:], f.offset)
	le.PutUint16(b[8:], f.folder)
	le.PutUint16(b[10:], f.date)
	le.PutUint16(b[12:], f.time)
	le.PutUint16(b[14:], f.attributes)
	b = append(b, f.name...)
	return append(b, 0)
}
