package cab

import (
	"bytes"
	"encoding/binary"
)

// Decoders differ on DEFLATE streams the RFC leaves loose. libmspack
// (cabextract, and Wine's cabinet.dll derived from it) refuses a block
// whose Huffman code is incomplete, such as the one-symbol distance code
// of length 1 that compress/flate writes for a block with one distance or
// none, which zlib, gcab and Go accept. decodesStrictly holds a stream to
// the strictest of them, so that a block it passes is one every decoder
// reads.

const (
	maxCodeBits      = 15
	endOfBlock       = 256
	literalSymbols   = 286 // 286 and 287 are never valid
	distanceSymbols  = 30  // 30 and 31 are never valid
	codeLengthCodes  = 19
	fixedLiterals    = 288
	fixedDistances   = 32
	blockStored      = 0
	blockFixed       = 1
	blockDynamic     = 2
	maxMatchDistance = 32768
)

// codeLengthOrder is the order HCLEN's code lengths come in (RFC 1951 3.2.7).
var codeLengthOrder = [codeLengthCodes]int{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}

// The bases and extra bits of length symbols 257..285 and distance
// symbols 0..29 (RFC 1951 3.2.5).
var (
	lengthBase  = [29]int{3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258}
	lengthExtra = [29]int{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
	distBase    = [30]int{1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577}
	distExtra   = [30]int{0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13}
)

// decodesStrictly reports whether stream, one DEFLATE stream without
// history, expands to exactly want with every dynamic block's three
// Huffman codes complete, and nothing after its final block.
func decodesStrictly(stream, want []byte) bool {
	return new(strictDecoder).decodes(stream, want)
}

// strictDecoder compares what it decodes with want as it goes, so that
// the bytes decoded so far are want[:out] and need no buffer of their own.
// One is reused from block to block, its codes and tables with it.
type strictDecoder struct {
	in      bitReader
	want    []byte
	out     int
	lengths [literalSymbols + distanceSymbols]uint8
	codeLen huffman
	lit     huffman
	dist    huffman
}

func (d *strictDecoder) decodes(stream, want []byte) bool {
	d.in, d.want, d.out = bitReader{data: stream}, want, 0
	for {
		final, ok := d.block()
		if !ok {
			return false
		}
		if final {
			return d.in.wholeBytes() == len(stream) && d.out == len(want)
		}
	}
}

// block decodes one block and says whether it was the final one.
func (d *strictDecoder) block() (final, ok bool) {
	header, ok := d.in.bits(3)
	if !ok {
		return false, false
	}
	final = header&1 == 1
	switch header >> 1 {
	case blockStored:
		return final, d.stored()
	case blockFixed:
		return final, d.symbols(fixedLiteralCode, fixedDistanceCode)
	case blockDynamic:
		return final, d.dynamicCodes() && d.symbols(&d.lit, &d.dist)
	}
	return false, false
}

func (d *strictDecoder) stored() bool {
	d.in.alignToByte()
	at := d.in.wholeBytes()
	if at+4 > len(d.in.data) {
		return false
	}
	n := int(binary.LittleEndian.Uint16(d.in.data[at:]))
	if ^uint16(n) != binary.LittleEndian.Uint16(d.in.data[at+2:]) || at+4+n > len(d.in.data) {
		return false
	}
	d.in.skipTo(at + 4 + n)
	return d.emit(d.in.data[at+4 : at+4+n])
}

// emit takes decoded bytes as long as they match what was wanted.
func (d *strictDecoder) emit(b []byte) bool {
	if d.out+len(b) > len(d.want) || !bytes.Equal(d.want[d.out:d.out+len(b)], b) {
		return false
	}
	d.out += len(b)
	return true
}

// dynamicCodes reads a dynamic block's header; each code must be complete.
func (d *strictDecoder) dynamicCodes() bool {
	hlit, ok1 := d.in.bits(5)
	hdist, ok2 := d.in.bits(5)
	hclen, ok3 := d.in.bits(4)
	if !ok1 || !ok2 || !ok3 {
		return false
	}
	nlit, ndist := int(hlit)+257, int(hdist)+1
	if nlit > literalSymbols || ndist > distanceSymbols {
		return false // as zlib refuses them
	}
	var clLengths [codeLengthCodes]uint8
	for i := 0; i < int(hclen)+4; i++ {
		v, ok := d.in.bits(3)
		if !ok {
			return false
		}
		clLengths[codeLengthOrder[i]] = uint8(v)
	}
	if !d.codeLen.build(clLengths[:]) {
		return false
	}
	lengths, ok := d.codeLengths(nlit + ndist)
	return ok && lengths[endOfBlock] != 0 && d.lit.build(lengths[:nlit]) && d.dist.build(lengths[nlit:])
}

// codeLengths reads n code lengths, runs included.
func (d *strictDecoder) codeLengths(n int) ([]uint8, bool) {
	lengths := d.lengths[:0]
	for len(lengths) < n {
		sym, ok := d.codeLen.decode(&d.in)
		if !ok {
			return nil, false
		}
		if sym < 16 {
			lengths = append(lengths, uint8(sym))
			continue
		}
		value, extra, least := uint8(0), uint(7), 11
		switch sym {
		case 16:
			if len(lengths) == 0 {
				return nil, false
			}
			value, extra, least = lengths[len(lengths)-1], 2, 3
		case 17:
			extra, least = 3, 3
		}
		run, ok := d.in.bits(extra)
		if !ok || len(lengths)+least+int(run) > n {
			return nil, false
		}
		for i := 0; i < least+int(run); i++ {
			lengths = append(lengths, value)
		}
	}
	return lengths, true
}

// symbols decodes literals and matches up to the end of the block.
func (d *strictDecoder) symbols(lit, dist *huffman) bool {
	for {
		sym, ok := lit.decode(&d.in)
		switch {
		case !ok || sym >= literalSymbols:
			return false
		case sym < endOfBlock:
			if d.out == len(d.want) || d.want[d.out] != byte(sym) {
				return false
			}
			d.out++
		case sym == endOfBlock:
			return true
		default:
			if !d.match(sym-endOfBlock-1, dist) {
				return false
			}
		}
	}
}

func (d *strictDecoder) match(lengthSym int, dist *huffman) bool {
	extra, ok := d.in.bits(uint(lengthExtra[lengthSym]))
	if !ok {
		return false
	}
	length := lengthBase[lengthSym] + int(extra)
	dsym, ok := dist.decode(&d.in)
	if !ok || dsym >= distanceSymbols {
		return false
	}
	extra, ok = d.in.bits(uint(distExtra[dsym]))
	distance := distBase[dsym] + int(extra)
	if !ok || distance > d.out || distance > maxMatchDistance || d.out+length > len(d.want) {
		return false
	}
	for i := 0; i < length; i++ {
		if d.want[d.out] != d.want[d.out-distance] {
			return false
		}
		d.out++
	}
	return true
}

// RFC 1951's fixed codes, with all 32 distance symbols as decoders build
// them, so the code is complete.
var fixedLiteralCode, fixedDistanceCode = fixedCodes()

func fixedCodes() (lit, dist *huffman) {
	var l [fixedLiterals]uint8
	for i := range l {
		switch {
		case i < 144:
			l[i] = 8
		case i < 256:
			l[i] = 9
		case i < 280:
			l[i] = 7
		default:
			l[i] = 8
		}
	}
	var dl [fixedDistances]uint8
	for i := range dl {
		dl[i] = 5
	}
	lit, dist = new(huffman), new(huffman)
	lit.build(l[:])
	dist.build(dl[:])
	return lit, dist
}

// fastBits is how many bits of a code one table lookup resolves; longer
// codes, which are rare, are decoded a bit at a time.
const fastBits = 9

// huffman is a canonical code: how many codes of each length, the symbols
// in code order, and a table of the codes up to fastBits long, indexed by
// the next fastBits bits of the stream (entry: symbol<<4 | length).
type huffman struct {
	count  [maxCodeBits + 1]int
	symbol [fixedLiterals]uint16
	fast   [1 << fastBits]uint32
}

// completeCode builds the code of lengths and reports whether it is
// complete: neither oversubscribed nor leaving codes unused.
func completeCode(lengths []uint8) (*huffman, bool) {
	h := new(huffman)
	return h, h.build(lengths)
}

// build makes h the code of lengths and reports whether it is complete.
func (h *huffman) build(lengths []uint8) bool {
	if len(lengths) > len(h.symbol) {
		return false
	}
	h.count = [maxCodeBits + 1]int{}
	for _, l := range lengths {
		h.count[l]++
	}
	left := 1
	for bits := 1; bits <= maxCodeBits; bits++ {
		left = left<<1 - h.count[bits]
		if left < 0 {
			return false
		}
	}
	if left != 0 {
		return false
	}
	var offset [maxCodeBits + 2]int
	for bits := 1; bits <= maxCodeBits; bits++ {
		offset[bits+1] = offset[bits] + h.count[bits]
	}
	for sym, l := range lengths {
		if l != 0 {
			h.symbol[offset[l]] = uint16(sym)
			offset[l]++
		}
	}
	h.fillFast()
	return true
}

// fillFast enters every code up to fastBits long in the table, under each
// index whose low bits are the code as it appears in the stream.
func (h *huffman) fillFast() {
	h.fast = [1 << fastBits]uint32{}
	code, index := 0, 0
	for bits := 1; bits <= fastBits; bits++ {
		for i := 0; i < h.count[bits]; i++ {
			reversed := int(reverseBits(uint16(code), uint(bits)))
			entry := uint32(h.symbol[index])<<4 | uint32(bits)
			for at := reversed; at < len(h.fast); at += 1 << bits {
				h.fast[at] = entry
			}
			code++
			index++
		}
		code <<= 1
	}
}

func reverseBits(v uint16, n uint) uint16 {
	var r uint16
	for i := uint(0); i < n; i++ {
		r = r<<1 | v&1
		v >>= 1
	}
	return r
}

// decode reads one symbol: from the table when its code is short, else a
// bit at a time from the code's first bit.
func (h *huffman) decode(in *bitReader) (int, bool) {
	if peek, n := in.peek(fastBits); n > 0 {
		if entry := h.fast[peek]; entry != 0 && uint(entry&0xf) <= n {
			in.consume(uint(entry & 0xf))
			return int(entry >> 4), true
		}
	}
	code, first, index := 0, 0, 0
	for bits := 1; bits <= maxCodeBits; bits++ {
		b, ok := in.bits(1)
		if !ok {
			return 0, false
		}
		code |= int(b)
		if n := h.count[bits]; code-first < n {
			return int(h.symbol[index+code-first]), true
		}
		index += h.count[bits]
		first = (first + h.count[bits]) << 1
		code <<= 1
	}
	return 0, false
}

// bitReader reads DEFLATE's bits, least significant first, through a
// 64-bit buffer.
type bitReader struct {
	data  []byte
	next  int    // the next byte of data to buffer
	buf   uint64 // buffered bits, the next one lowest
	nbits uint
	pos   int // bits consumed
}

func (r *bitReader) bits(n uint) (uint32, bool) {
	v, have := r.peek(n)
	if have < n {
		return 0, false
	}
	r.consume(n)
	return v, true
}

// peek returns the next n bits without consuming them, and how many of
// them the stream holds (fewer near its end; the missing ones are 0).
func (r *bitReader) peek(n uint) (uint32, uint) {
	for r.nbits < n && r.next < len(r.data) {
		r.buf |= uint64(r.data[r.next]) << r.nbits
		r.next++
		r.nbits += 8
	}
	return uint32(r.buf & (1<<n - 1)), min(n, r.nbits)
}

func (r *bitReader) consume(n uint) {
	r.buf >>= n
	r.nbits -= n
	r.pos += int(n)
}

func (r *bitReader) alignToByte() {
	if skip := uint(-r.pos & 7); skip > 0 {
		r.bits(skip)
	}
}

// skipTo drops the buffer and goes on reading at byte at.
func (r *bitReader) skipTo(at int) {
	r.next, r.buf, r.nbits, r.pos = at, 0, 0, 8*at
}

func (r *bitReader) wholeBytes() int { return (r.pos + 7) / 8 }
