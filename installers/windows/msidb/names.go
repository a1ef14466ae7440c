package msidb

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf16"
)

// Stream names are packed: characters of a 64-letter alphabet go two to a
// UTF-16 unit (0x3800 + a + 64*b) or one alone (0x4800 + a); table streams
// start with the unit 0x4840; anything else is stored as itself.
const (
	packedPair   = 0x3800
	packedSingle = 0x4800
	tableMarker  = 0x4840
	// maxNameUnits is the compound file's limit: 32 units with the NUL.
	maxNameUnits = 31
)

const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz._"

func alphabetIndex(r rune) int {
	if r > 0x7f {
		return -1
	}
	return strings.IndexByte(alphabet, byte(r))
}

// ErrNameTooLong is returned for names that do not fit a compound file
// directory entry once packed.
var ErrNameTooLong = errors.New("msidb: stream name too long")

// EncodeName packs a stream name; table streams get the table marker.
// The result is the name as the compound file stores it, one rune per
// UTF-16 unit.
func EncodeName(name string, table bool) (string, error) {
	var units []rune
	if table {
		units = append(units, tableMarker)
	}
	in := []rune(name)
	for i := 0; i < len(in); i++ {
		c := in[i]
		if c >= packedPair && c <= tableMarker || c > 0xffff || c == 0 {
			return "", fmt.Errorf("msidb: stream name %q: character %U cannot be stored", name, c)
		}
		a := alphabetIndex(c)
		if a < 0 {
			units = append(units, c)
			continue
		}
		if i+1 < len(in) {
			if b := alphabetIndex(in[i+1]); b >= 0 {
				units = append(units, rune(packedPair+a+64*b))
				i++
				continue
			}
		}
		units = append(units, rune(packedSingle+a))
	}
	if len(units) > maxNameUnits {
		return "", fmt.Errorf("%w: %q packs to %d units (max %d)", ErrNameTooLong, name, len(units), maxNameUnits)
	}
	return string(units), nil
}

// DecodeName unpacks a stored stream name and says whether it names a
// table.
func DecodeName(stored string) (name string, table bool) {
	var b strings.Builder
	for i, u := range utf16.Encode([]rune(stored)) {
		switch {
		case u == tableMarker && i == 0:
			table = true
		case u >= packedPair && u < packedSingle:
			v := int(u - packedPair)
			b.WriteByte(alphabet[v&63])
			b.WriteByte(alphabet[v>>6&63])
		case u >= packedSingle && u < tableMarker:
			b.WriteByte(alphabet[u-packedSingle])
		default:
			b.WriteRune(rune(u))
		}
	}
	return b.String(), table
}
