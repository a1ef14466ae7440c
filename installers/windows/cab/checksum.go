package cab

import "encoding/binary"

// checksum folds b into seed as [MS-CAB] 2.4 computes CFDATA.csum: XOR of
// little-endian u32 words, with a 1 to 3 byte tail read most significant
// byte first.
func checksum(b []byte, seed uint32) uint32 {
	sum := seed
	for len(b) >= 4 {
		sum ^= binary.LittleEndian.Uint32(b)
		b = b[4:]
	}
	var tail uint32
	for _, c := range b {
		tail = tail<<8 | uint32(c)
	}
	return sum ^ tail
}

// blockChecksum is the csum of a CFDATA block: the data first, then the
// cbData and cbUncomp fields as stored.
func blockChecksum(data []byte, compressed, uncompressed uint16) uint32 {
	var sizes [4]byte
	binary.LittleEndian.PutUint16(sizes[0:], compressed)
	binary.LittleEndian.PutUint16(sizes[2:], uncompressed)
	return checksum(sizes[:], checksum(data, 0))
}
