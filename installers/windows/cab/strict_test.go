package cab

import (
	"bytes"
	"compress/flate"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"
)

// strided is highly repetitive data: records repeating at one stride with
// rare changed bytes, so nearly every match has the same distance. On
// such data compress/flate writes a distance code of one symbol.
func strided(seed uint64, n int) []byte {
	rng := rand.New(rand.NewPCG(seed, 7))
	stride := 1 + rng.IntN(300)
	b := make([]byte, n)
	for i := range b {
		switch {
		case i < stride || rng.IntN(50) == 0:
			b[i] = byte(rng.Uint32())
		default:
			b[i] = b[i-stride]
		}
	}
	return b
}

func goDeflate(t testing.TB, level int, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	fw, err := flate.NewWriter(&buf, level)
	if err != nil {
		t.Fatal(err)
	}
	fw.Write(data)
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func goInflate(t *testing.T, stream []byte) []byte {
	t.Helper()
	out, err := io.ReadAll(flate.NewReader(bytes.NewReader(stream)))
	if err != nil {
		t.Fatalf("compress/flate cannot read the stream: %v", err)
	}
	return out
}

// The fault the compressor guards against: compress/flate's own output,
// which Go reads, that the strict check refuses. Should a Go release stop
// writing it, this input no longer shows the fault and needs replacing.
func TestGoFlateWritesIncompleteCodes(t *testing.T) {
	data := strided(2, 15881)
	stream := goDeflate(t, flate.DefaultCompression, data)
	if !bytes.Equal(goInflate(t, stream), data) {
		t.Fatal("compress/flate does not round-trip")
	}
	if decodesStrictly(stream, data) {
		t.Error("compress/flate's stream for strided data passes the strict check; it was expected to carry a one-symbol distance code")
	}
}

// Every block the compressor emits passes the strict check and inflates
// back to its data.
func TestCompressorEmitsOnlyCompleteCodes(t *testing.T) {
	inputs := map[string][]byte{
		"zeros":     make([]byte, blockSize),
		"one byte":  {42},
		"text":      textLike(3, blockSize),
		"random":    pseudoRandom(4, blockSize),
		"short run": bytes.Repeat([]byte("ab"), 20),
	}
	for seed := uint64(0); seed < 40; seed++ {
		inputs[fmt.Sprintf("strided %d", seed)] = strided(seed, 1000+int(seed)*800)
	}
	c := newCompressor()
	for name, data := range inputs {
		payload, err := c.compress(data)
		if err != nil {
			t.Fatal(err)
		}
		if [2]byte(payload[:2]) != mszipMagic {
			t.Fatalf("%s: no CK signature", name)
		}
		if !decodesStrictly(payload[2:], data) {
			t.Errorf("%s: the compressor emitted a block the strict check refuses", name)
		}
		if !bytes.Equal(goInflate(t, payload[2:]), data) {
			t.Errorf("%s: block does not inflate back", name)
		}
		if len(payload) > storedOverhead+len(data) {
			t.Errorf("%s: %d bytes, more than stored", name, len(payload))
		}
	}
}

func TestDecodesStrictlyAcceptsEveryBlockType(t *testing.T) {
	tiny := []byte("ctrld")
	if fixed := goDeflate(t, flate.DefaultCompression, tiny); fixed[0]>>1&3 != blockFixed || !decodesStrictly(fixed, tiny) {
		t.Errorf("fixed block %x refused", fixed)
	}
	text := textLike(5, blockSize)
	if dynamic := goDeflate(t, flate.DefaultCompression, text); dynamic[0]>>1&3 != blockDynamic || !decodesStrictly(dynamic, text) {
		t.Error("dynamic block of text refused")
	}
	random := pseudoRandom(6, 1000)
	if stored := goDeflate(t, flate.NoCompression, random); !decodesStrictly(stored, random) {
		t.Error("stored block refused")
	}
}

func TestDecodesStrictlyRefusesDamage(t *testing.T) {
	text := textLike(7, 5000)
	stream := goDeflate(t, flate.DefaultCompression, text)
	other := append([]byte{}, text...)
	other[4000] ^= 1
	cases := map[string]struct{ stream, want []byte }{
		"other data":     {stream, other},
		"shorter data":   {stream, text[:4999]},
		"longer data":    {stream, append(append([]byte{}, text...), 'x')},
		"truncated":      {stream[:len(stream)-3], text},
		"trailing bytes": {append(append([]byte{}, stream...), 0), text},
		"reserved type":  {[]byte{0x07}, nil},
		"stored NLEN":    {[]byte{0x01, 0x01, 0x00, 0x00, 0x00, 'x'}, []byte("x")},
		"empty":          {nil, nil},
	}
	for name, c := range cases {
		if decodesStrictly(c.stream, c.want) {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestCompleteCode(t *testing.T) {
	cases := []struct {
		lengths []uint8
		ok      bool
	}{
		{[]uint8{1, 1}, true},
		{[]uint8{1, 2, 2}, true},
		{[]uint8{0, 2, 2, 2, 2, 0}, true},
		{[]uint8{1}, false},          // compress/flate's one-symbol code
		{[]uint8{1, 2}, false},       // a code left unused
		{[]uint8{1, 1, 1}, false},    // oversubscribed
		{[]uint8{0, 0, 0}, false},    // no code at all
		{[]uint8{2, 2, 2, 3}, false}, // incomplete
	}
	for _, c := range cases {
		if _, ok := completeCode(c.lengths); ok != c.ok {
			t.Errorf("completeCode(%v) = %v, want %v", c.lengths, ok, c.ok)
		}
	}
}

func BenchmarkDecodesStrictly(b *testing.B) {
	data := append(textLike(9, blockSize/2), pseudoRandom(9, blockSize/2)...)
	var buf bytes.Buffer
	fw, _ := flate.NewWriter(&buf, flate.DefaultCompression)
	fw.Write(data)
	fw.Close()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if !decodesStrictly(buf.Bytes(), data) {
			b.Fatal("refused")
		}
	}
}

// Whatever a block holds, the compressor emits it in a form the strict
// check passes and compress/flate inflates back.
func FuzzCompressor(f *testing.F) {
	f.Add(strided(2, 15881))
	f.Add(textLike(1, 4000))
	f.Add([]byte{0})
	c := newCompressor()
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > blockSize {
			data = data[:blockSize]
		}
		payload, err := c.compress(data)
		if err != nil {
			t.Fatal(err)
		}
		if !decodesStrictly(payload[len(mszipMagic):], data) {
			t.Error("the compressor emitted a block the strict check refuses")
		}
		if !bytes.Equal(goInflate(t, payload[len(mszipMagic):]), data) {
			t.Error("block does not inflate back")
		}
	})
}

// The strict check never panics, and what it passes compress/flate reads
// as the same bytes.
func FuzzDecodesStrictly(f *testing.F) {
	text := textLike(3, 3000)
	f.Add(goDeflate(f, flate.DefaultCompression, text), text)
	f.Add(goDeflate(f, flate.BestSpeed, text[:100]), text[:100])
	f.Add([]byte{0x01, 0x01, 0x00, 0xfe, 0xff, 'x'}, []byte("x"))
	f.Fuzz(func(t *testing.T, stream, want []byte) {
		if !decodesStrictly(stream, want) {
			return
		}
		got, err := io.ReadAll(flate.NewReader(bytes.NewReader(stream)))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("passed a stream compress/flate reads as %d bytes (%v), want %d", len(got), err, len(want))
		}
	})
}
