// Package xar reads and writes xar archives, the container of a macOS flat
// installer package: a 28-byte header, a zlib-compressed XML table of
// contents, and a heap holding the TOC's SHA-1 digest and every member's
// bytes. Writer and Reader follow archive/tar's shape.
package xar

import "errors"

// Member types.
const (
	TypeFile      = "file"
	TypeDirectory = "directory"
)

// Encodings of member data in the heap.
const (
	// EncodingNone stores bytes as they are (application/octet-stream).
	EncodingNone = "application/octet-stream"
	// EncodingZlib stores a zlib stream (named application/x-gzip by xar).
	EncodingZlib = "application/x-gzip"
)

// Header describes one member.
type Header struct {
	// Name is the member's path inside the archive, "/"-separated.
	Name     string
	Type     string
	Mode     int64 // permission bits
	UID, GID int
	User     string
	Group    string
	// Encoding applies to files; empty means EncodingNone.
	Encoding string
	// Size is the decoded size (Reader only).
	Size int64
}

const (
	magic      = 0x78617221 // "xar!"
	headerSize = 28
	version    = 1
	cksumSHA1  = 1
	digestSize = 20
	// MaxTOCSize bounds the XML a Reader will inflate.
	MaxTOCSize = 16 << 20
)

var (
	ErrFormat   = errors.New("xar: malformed archive")
	ErrChecksum = errors.New("xar: checksum mismatch")
	ErrNotFound = errors.New("xar: no such member")
)
