package cab

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"io"
)

// mszipMagic starts every MSZIP block ([MS-MCI]).
var mszipMagic = [2]byte{'C', 'K'}

// storedOverhead is the "CK" and the 5-byte header of one final stored
// DEFLATE block.
const storedOverhead = 2 + 5

// compressor turns 32 KiB blocks into MSZIP payloads. Each block is
// compressed on its own (no history), which every decoder accepts and
// lets the flate.Writers be reused with Reset.
//
// A block goes out only in a form every decoder reads (decodesStrictly):
// compress/flate at its default level, else at BestSpeed, whose other
// matcher makes other blocks, else stored. Which one is chosen depends on
// the data alone, so the output stays reproducible.
type compressor struct {
	levels [2]*flate.Writer // made on first use
	buf    bytes.Buffer
	check  strictDecoder
}

// compressionLevels are tried in turn.
var compressionLevels = [2]int{flate.DefaultCompression, flate.BestSpeed}

func newCompressor() *compressor { return &compressor{} }

// compress returns "CK" and DEFLATE blocks holding data, ending in a
// final one, never more than a stored block would take. The slice is
// reused by the next call.
func (c *compressor) compress(data []byte) ([]byte, error) {
	for i := range compressionLevels {
		ok, err := c.deflate(i, data)
		if err != nil {
			return nil, err
		}
		if ok {
			return c.buf.Bytes(), nil
		}
	}
	c.store(data)
	return c.buf.Bytes(), nil
}

// deflate compresses data at the i-th level into buf and reports whether
// the result is smaller than stored and read alike by every decoder.
func (c *compressor) deflate(i int, data []byte) (bool, error) {
	c.buf.Reset()
	c.buf.Write(mszipMagic[:])
	if c.levels[i] == nil {
		c.levels[i], _ = flate.NewWriter(nil, compressionLevels[i])
	}
	fw := c.levels[i]
	fw.Reset(&c.buf)
	if _, err := fw.Write(data); err != nil {
		return false, err
	}
	if err := fw.Close(); err != nil {
		return false, err
	}
	if c.buf.Len() > storedOverhead+len(data) {
		return false, nil
	}
	return c.check.decodes(c.buf.Bytes()[len(mszipMagic):], data), nil
}

// store puts data in buf as one final stored DEFLATE block.
func (c *compressor) store(data []byte) {
	c.buf.Reset()
	c.buf.Write(mszipMagic[:])
	var stored [5]byte
	stored[0] = 1 // BFINAL, BTYPE 00
	binary.LittleEndian.PutUint16(stored[1:], uint16(len(data)))
	binary.LittleEndian.PutUint16(stored[3:], ^uint16(len(data)))
	c.buf.Write(stored[:])
	c.buf.Write(data)
}

// decompressor inflates MSZIP blocks of one folder in order, keeping the
// last 32 KiB of output as the next block's history ([MS-MCI]).
type decompressor struct {
	fr      io.ReadCloser
	history []byte
	out     []byte
}

func newDecompressor() *decompressor {
	return &decompressor{
		fr:      flate.NewReader(bytes.NewReader(nil)),
		history: make([]byte, 0, blockSize),
		out:     make([]byte, blockSize),
	}
}

// inflate returns the want bytes block expands to (valid until the next
// call).
func (d *decompressor) inflate(block []byte, want int) ([]byte, error) {
	if len(block) < len(mszipMagic) || [2]byte(block[:2]) != mszipMagic {
		return nil, corrupt("MSZIP block without CK signature")
	}
	if err := d.fr.(flate.Resetter).Reset(bytes.NewReader(block[2:]), d.history); err != nil {
		return nil, err
	}
	out := d.out[:want]
	if _, err := io.ReadFull(d.fr, out); err != nil {
		return nil, corrupt("MSZIP block: %v", err)
	}
	var probe [1]byte
	if n, _ := d.fr.Read(probe[:]); n > 0 {
		return nil, corrupt("MSZIP block expands past its cbUncomp %d", want)
	}
	d.remember(out)
	return out, nil
}

// remember keeps the last 32 KiB of everything inflated so far.
func (d *decompressor) remember(out []byte) {
	if keep := blockSize - len(out); len(d.history) > keep {
		d.history = append(d.history[:0], d.history[len(d.history)-keep:]...)
	}
	d.history = append(d.history, out...)
}
