package notary

import (
	"bytes"
	"encoding/binary"
	"errors"
)

// Apple's stapler appends a ticket to a flat package (a xar archive)
// after everything the TOC points at, between two 16-byte records, all
// little-endian: a terminator (magic "t8lr", version 1, type 1, length
// 0), the ticket, and a ticket record (type 2, length = the ticket's
// size). A reader finds the ticket from the file's end; xar readers
// never look past the heap.
const (
	trailerMagic      = "t8lr"
	trailerSize       = 16
	trailerVersion    = 1
	trailerTerminator = 1
	trailerTicket     = 2
)

func trailerRecord(typ uint16, length uint32) []byte {
	b := make([]byte, trailerSize)
	copy(b, trailerMagic)
	binary.LittleEndian.PutUint16(b[4:], trailerVersion)
	binary.LittleEndian.PutUint16(b[6:], typ)
	binary.LittleEndian.PutUint32(b[8:], length)
	return b
}

// appendTicket is the stapled form of pkg: pkg, then the trailer.
func appendTicket(pkg, ticket []byte) []byte {
	out := make([]byte, 0, len(pkg)+len(ticket)+2*trailerSize)
	out = append(out, pkg...)
	out = append(out, trailerRecord(trailerTerminator, 0)...)
	out = append(out, ticket...)
	return append(out, trailerRecord(trailerTicket, uint32(len(ticket)))...)
}

var errNoTicket = errors.New("no stapled ticket")

// splitTicket parses a stapled file back into the package and the
// ticket; errNoTicket when the file ends with no ticket record.
func splitTicket(file []byte) (pkg, ticket []byte, err error) {
	if len(file) < 2*trailerSize {
		return file, nil, errNoTicket
	}
	last := file[len(file)-trailerSize:]
	if !isRecord(last, trailerTicket) {
		return file, nil, errNoTicket
	}
	length := int64(binary.LittleEndian.Uint32(last[8:]))
	start := int64(len(file)) - 2*trailerSize - length
	if start < 0 || !isRecord(file[start:start+trailerSize], trailerTerminator) {
		return file, nil, errors.New("a ticket record whose terminator is missing")
	}
	return file[:start], file[start+trailerSize : start+trailerSize+length], nil
}

func isRecord(b []byte, typ uint16) bool {
	return bytes.HasPrefix(b, []byte(trailerMagic)) &&
		binary.LittleEndian.Uint16(b[4:]) == trailerVersion && binary.LittleEndian.Uint16(b[6:]) == typ
}
