// Package bom reads and writes macOS "BOMStore" bills of materials, the
// Bom member of an installer package: a block store whose Paths B+tree
// lists every payload path with its type, mode, owner, size and checksum.
// A Writer takes WriteHeader then the file's bytes (to checksum them), as
// archive/tar does; a Reader lists what a BOM holds.
package bom

import "errors"

// Entry types as stored in a path record.
const (
	TypeFile    = 1
	TypeDir     = 2
	TypeSymlink = 3
	TypeDevice  = 4
)

// Mode type bits (st_mode).
const (
	modeDir     = 0o040000
	modeRegular = 0o100000
	modeSymlink = 0o120000
	modeType    = 0o170000
)

// Header describes one path.
type Header struct {
	// Name is the payload path: "." or "./a/b".
	Name     string
	Mode     uint16 // st_mode including type bits
	UID, GID uint32
	ModTime  uint32
	// Size and Checksum are filled in by the Writer from the data written
	// (files) or Linkname (symlinks).
	Size     uint32
	Checksum uint32
	Linkname string
	// Arch is the record's architecture field; the Writer uses 0x000F.
	Arch uint16
	// RecordLen is the stored record's length (Reader only).
	RecordLen int
}

// Type derives the record type from Mode.
func (h *Header) Type() uint8 {
	switch uint32(h.Mode) & modeType {
	case modeDir:
		return TypeDir
	case modeSymlink:
		return TypeSymlink
	case modeRegular:
		return TypeFile
	}
	return TypeDevice
}

// Layout constants.
const (
	magic          = "BOMStore"
	headerZone     = 512
	treeMagic      = "tree"
	pathsBlockSize = 4096
	vindexBlock    = 128
	leafCapacity   = 256
	// maxBranch is how many leaves one branch node can point at.
	maxBranch = (pathsBlockSize - 12) / 8
)

var (
	ErrFormat   = errors.New("bom: malformed BOM")
	ErrTooLarge = errors.New("bom: too many paths for one branch level")
	ErrNoRoot   = errors.New(`bom: the root "." must be written first`)
)
