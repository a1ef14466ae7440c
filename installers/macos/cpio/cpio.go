// Package cpio reads and writes the POSIX.1 "odc" cpio format (magic
// 070707) that macOS installer payloads use. Like archive/tar, a Writer
// takes WriteHeader then the entry's bytes, and a Reader hands out one
// header at a time.
package cpio

import (
	"errors"
)

// Magic starts every odc header.
const Magic = "070707"

const (
	headerLen = 76
	trailer   = "TRAILER!!!"
	// blockSize: the whole stream is zero-padded to a multiple of it, as
	// Apple's tools and GNU cpio do.
	blockSize = 512
)

// Mode type bits, as in st_mode.
const (
	TypeDir     = 0o040000
	TypeRegular = 0o100000
	TypeSymlink = 0o120000
	typeMask    = 0o170000
)

// Header is one entry. Mode holds st_mode including the type bits.
type Header struct {
	Name     string
	Mode     int64
	UID, GID int64
	NLink    int64
	Ino      int64
	ModTime  int64 // seconds since 1970
	Size     int64
	// Linkname is a symlink's target; it is written as the entry's data.
	Linkname string
}

// IsDir, IsRegular and IsSymlink read the type bits.
func (h *Header) IsDir() bool     { return h.Mode&typeMask == TypeDir }
func (h *Header) IsRegular() bool { return h.Mode&typeMask == TypeRegular }
func (h *Header) IsSymlink() bool { return h.Mode&typeMask == TypeSymlink }

// Field limits of the odc format.
const (
	maxSix    = 0o777777
	maxEleven = 0o77777777777
)

var (
	ErrFieldTooLarge = errors.New("cpio: value does not fit its odc field")
	ErrWriteTooLong  = errors.New("cpio: write longer than the header's size")
	ErrShortWrite    = errors.New("cpio: entry closed before its size was written")
	ErrHeader        = errors.New("cpio: invalid odc header")
)
