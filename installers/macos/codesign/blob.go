// Package codesign signs Mach-O images as Apple's codesign does for a
// Developer ID, and reads such signatures back: a Signer writes one, a
// Reader parses and verifies one. Both work on thin images; SignFile and
// ReadFile take a thin or universal file.
//
// A signature is an embedded-signature SuperBlob appended to __LINKEDIT
// and named by LC_CODE_SIGNATURE. It holds a CodeDirectory (SHA-256 of
// every 4096-byte page up to the signature, the identifier, the team ID,
// the flags such as the hardened runtime, and the hashes of the other
// blobs in its special slots), the requirement set with the designated
// requirement, and a CMS signature over the CodeDirectory. All integers
// in the signature are big-endian; the Mach-O image around it is
// little-endian.
package codesign

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sort"
)

// Blob magic numbers.
const (
	magicRequirement       = 0xfade0c00
	magicRequirementSet    = 0xfade0c01
	magicCodeDirectory     = 0xfade0c02
	magicEmbeddedSignature = 0xfade0cc0
	magicBlobWrapper       = 0xfade0b01
)

// Slot numbers: the SuperBlob index types, and (negated) the special
// slots of the CodeDirectory's hash array.
const (
	slotCodeDirectory = 0
	slotInfoPlist     = 1
	slotRequirements  = 2
	slotSignature     = 0x10000
	// Alternate CodeDirectories (one per extra hash type) take the slots
	// from here on.
	slotAlternateCodeDirectories = 0x1000
	maxAlternateCodeDirectories  = 5
)

// specialSlots is how many special slots the CodeDirectory carries: the
// Info.plist slot (empty: a bare executable has none) and the
// requirements slot.
const specialSlots = slotRequirements

const blobHeaderLen = 8

// ErrNotSigned means a Mach-O image carries no code signature.
var ErrNotSigned = errors.New("codesign: not signed")

// ErrInvalid marks a signature that does not verify or is malformed.
var ErrInvalid = errors.New("codesign: invalid signature")

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
}

// blob is magic, length and a body.
func blob(magic uint32, body []byte) []byte {
	out := binary.BigEndian.AppendUint32(nil, magic)
	out = binary.BigEndian.AppendUint32(out, uint32(blobHeaderLen+len(body)))
	return append(out, body...)
}

// superBlob packs blobs by slot, in slot order.
func superBlob(magic uint32, blobs map[uint32][]byte) []byte {
	slots := make([]uint32, 0, len(blobs))
	for s := range blobs {
		slots = append(slots, s)
	}
	sort.Slice(slots, func(i, j int) bool { return slots[i] < slots[j] })
	offset := blobHeaderLen + 4 + 8*len(slots)
	body := binary.BigEndian.AppendUint32(nil, uint32(len(slots)))
	for _, s := range slots {
		body = binary.BigEndian.AppendUint32(body, s)
		body = binary.BigEndian.AppendUint32(body, uint32(offset))
		offset += len(blobs[s])
	}
	for _, s := range slots {
		body = append(body, blobs[s]...)
	}
	return blob(magic, body)
}

// readBlob checks data starts with a blob of magic and returns it whole.
func readBlob(data []byte, magic uint32) ([]byte, error) {
	if len(data) < blobHeaderLen || binary.BigEndian.Uint32(data) != magic {
		return nil, invalid("expected a blob with magic %#x", magic)
	}
	n := binary.BigEndian.Uint32(data[4:])
	if n < blobHeaderLen || uint64(n) > uint64(len(data)) {
		return nil, invalid("blob %#x has length %d, %d bytes are there", magic, n, len(data))
	}
	return data[:n], nil
}

// readSuperBlob returns each slot's blob.
func readSuperBlob(data []byte, magic uint32) (map[uint32][]byte, error) {
	whole, err := readBlob(data, magic)
	if err != nil {
		return nil, err
	}
	if len(whole) < blobHeaderLen+4 {
		return nil, invalid("short super blob")
	}
	count := binary.BigEndian.Uint32(whole[8:])
	if uint64(blobHeaderLen+4)+8*uint64(count) > uint64(len(whole)) {
		return nil, invalid("super blob index runs past its end")
	}
	out := map[uint32][]byte{}
	for i := 0; i < int(count); i++ {
		e := whole[blobHeaderLen+4+8*i:]
		slot, off := binary.BigEndian.Uint32(e), binary.BigEndian.Uint32(e[4:])
		if off >= uint32(len(whole)) || len(whole)-int(off) < blobHeaderLen {
			return nil, invalid("slot %#x points past the super blob", slot)
		}
		n := binary.BigEndian.Uint32(whole[off+4:])
		if n < blobHeaderLen || uint64(off)+uint64(n) > uint64(len(whole)) {
			return nil, invalid("slot %#x runs past the super blob", slot)
		}
		out[slot] = whole[off : off+n]
	}
	return out, nil
}
