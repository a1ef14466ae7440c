// Package cfb reads and writes compound files (MS-CFB version 3, 512-byte
// sectors), the container of Windows Installer packages. Only streams in
// the root storage are written; the reader lists root streams and skips
// storages.
package cfb

const (
	sectorShift     = 9
	sectorSize      = 1 << sectorShift
	miniSectorShift = 6
	miniSectorSize  = 1 << miniSectorShift
	miniCutoff      = 4096
	entriesPerFAT   = sectorSize / 4
	// A DIFAT sector holds FAT sector numbers and, in its last slot, the
	// number of the next DIFAT sector.
	entriesPerDIFAT = entriesPerFAT - 1
	headerDIFAT     = 109
	dirEntrySize    = 128
	entriesPerDir   = sectorSize / dirEntrySize
)

// Special sector numbers ([MS-CFB] 2.1).
const (
	maxRegSect = 0xFFFFFFFA
	difSect    = 0xFFFFFFFC
	fatSect    = 0xFFFFFFFD
	endOfChain = 0xFFFFFFFE
	freeSect   = 0xFFFFFFFF
	noStream   = 0xFFFFFFFF
)

// sectorOffset is where regular sector n starts in a file whose header
// takes one sector of the given size.
func sectorOffset(n uint32, size int64) int64 {
	return (int64(n) + 1) * size
}
