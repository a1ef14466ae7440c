package bom

// The BOM's file checksum is the POSIX cksum(1) CRC: polynomial 0x04C11DB7
// fed most-significant bit first, then the data length, inverted at the
// end. It is not the zlib CRC-32 of hash/crc32.

var cksumTable = func() (t [256]uint32) {
	for i := range t {
		c := uint32(i) << 24
		for range 8 {
			if c&0x80000000 != 0 {
				c = c<<1 ^ 0x04C11DB7
			} else {
				c <<= 1
			}
		}
		t[i] = c
	}
	return t
}()

// Cksum computes the POSIX cksum CRC incrementally. The zero value is ready
// for use.
type Cksum struct {
	crc uint32
	n   uint64
}

// Write adds data.
func (c *Cksum) Write(p []byte) (int, error) {
	crc := c.crc
	for _, b := range p {
		crc = crc<<8 ^ cksumTable[byte(crc>>24)^b]
	}
	c.crc = crc
	c.n += uint64(len(p))
	return len(p), nil
}

// Sum32 returns the checksum of everything written so far.
func (c *Cksum) Sum32() uint32 {
	crc := c.crc
	for n := c.n; n != 0; n >>= 8 {
		crc = crc<<8 ^ cksumTable[byte(crc>>24)^byte(n)]
	}
	return ^crc
}

// Checksum is the cksum of data.
func Checksum(data []byte) uint32 {
	var c Cksum
	c.Write(data)
	return c.Sum32()
}
