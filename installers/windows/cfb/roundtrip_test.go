package cfb

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
)

// msiCLSID is the root class id of an installation package.
var msiCLSID = [16]byte{0x84, 0x10, 0x0C, 0x00, 0x00, 0x00, 0x00, 0x00, 0xC0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x46}

func pseudoRandom(seed uint64, n int) []byte {
	rng := rand.New(rand.NewPCG(seed, seed))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

// build writes a compound file holding streams and returns its bytes.
func build(t testing.TB, clsid [16]byte, streams map[string][]byte) []byte {
	t.Helper()
	var out bytes.Buffer
	w := NewWriter(&out)
	w.SetRootCLSID(clsid)
	for name, data := range streams {
		if err := w.Add(name, int64(len(data)), bytes.NewReader(data)); err != nil {
			t.Fatalf("Add(%q): %v", name, err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	return out.Bytes()
}

// readAll opens file and returns every root stream's bytes.
func readAll(t testing.TB, file []byte) (*Reader, map[string][]byte) {
	t.Helper()
	r, err := NewReader(bytes.NewReader(file), int64(len(file)))
	if err != nil {
		t.Fatalf("NewReader: %v", err)
	}
	got := map[string][]byte{}
	for _, s := range r.Streams() {
		f, err := r.Open(s.Name)
		if err != nil {
			t.Fatalf("Open(%q): %v", s.Name, err)
		}
		data, err := io.ReadAll(f)
		if err != nil {
			t.Fatalf("read %q: %v", s.Name, err)
		}
		if int64(len(data)) != s.Size {
			t.Fatalf("%q: read %d bytes, listed %d", s.Name, len(data), s.Size)
		}
		got[s.Name] = data
	}
	return r, got
}

func checkRoundTrip(t *testing.T, streams map[string][]byte) []byte {
	t.Helper()
	file := build(t, msiCLSID, streams)
	if len(file)%sectorSize != 0 {
		t.Errorf("file length %d is not whole sectors", len(file))
	}
	r, got := readAll(t, file)
	if r.RootCLSID() != msiCLSID {
		t.Errorf("root CLSID %x", r.RootCLSID())
	}
	if len(got) != len(streams) {
		t.Errorf("read %d streams, wrote %d", len(got), len(streams))
	}
	for name, want := range streams {
		if !bytes.Equal(got[name], want) {
			t.Errorf("stream %q differs (%d bytes read, %d written)", name, len(got[name]), len(want))
		}
	}
	return file
}

func TestRoundTripSizes(t *testing.T) {
	streams := map[string][]byte{}
	for _, n := range []int{0, 1, 63, 64, 65, 511, 512, 513, 4095, 4096, 4097, 70000} {
		streams[fmt.Sprintf("s%d", n)] = pseudoRandom(uint64(n), n)
	}
	checkRoundTrip(t, streams)
}

func TestRoundTripEmptyFile(t *testing.T) {
	file := checkRoundTrip(t, nil)
	if len(file) != headerSize+2*sectorSize {
		t.Errorf("empty file is %d bytes, want header, directory and FAT", len(file))
	}
}

func TestRoundTripMSINames(t *testing.T) {
	streams := map[string][]byte{
		"\x05SummaryInformation":                  pseudoRandom(1, 460),
		string([]rune{0x4840, 0x430F, 0x422F}):    pseudoRandom(2, 40),
		string([]rune{0x45E6, 0x43F5, 0x47A7}):    pseudoRandom(3, 9000),
		string([]rune{0x4840, 0x3F3F, 0x4577}):    pseudoRandom(4, 2591),
		"\x05DigitalSignature":                    pseudoRandom(5, 3000),
		strings.Repeat("x", maxNameLen):           []byte("longest name"),
		string([]rune{0x3800, 0x4840, 0x3800, 1}): {},
	}
	checkRoundTrip(t, streams)
}

func TestRoundTripManyStreams(t *testing.T) {
	streams := map[string][]byte{}
	for i := range 1000 {
		streams[fmt.Sprintf("stream%04d", i)] = pseudoRandom(uint64(i), i*7%5000)
	}
	checkRoundTrip(t, streams)
}

// TestRoundTripDIFAT writes a file that needs more FAT sectors than the
// header's 109 slots hold, so DIFAT sectors are in use.
func TestRoundTripDIFAT(t *testing.T) {
	big := pseudoRandom(9, 8<<20)
	file := checkRoundTrip(t, map[string][]byte{"big": big, "small": []byte("x")})
	h, err := parseHeader(file)
	if err != nil {
		t.Fatal(err)
	}
	if h.numFATSectors <= headerDIFAT || h.numDIFAT == 0 || h.firstDIFAT == endOfChain {
		t.Errorf("FAT sectors %d, DIFAT sectors %d, first DIFAT %#x: want DIFAT in use", h.numFATSectors, h.numDIFAT, h.firstDIFAT)
	}
}

func TestDeterministic(t *testing.T) {
	streams := map[string][]byte{"a": pseudoRandom(1, 100), "b": pseudoRandom(2, 5000), "C": nil}
	first := build(t, msiCLSID, streams)
	for range 5 {
		if !bytes.Equal(build(t, msiCLSID, streams), first) {
			t.Fatal("two writes of the same streams differ")
		}
	}
}

func TestAddErrors(t *testing.T) {
	w := NewWriter(io.Discard)
	if err := w.Add("Name", 1, strings.NewReader("x")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		size int64
		want error
	}{
		{"Name", 1, ErrDuplicateName},
		{"NAME", 1, ErrDuplicateName},
		{strings.Repeat("n", maxNameLen+1), 1, ErrNameTooLong},
		{"", 1, ErrInvalidName},
		{"a/b", 1, ErrInvalidName},
		{"a\x00b", 1, ErrInvalidName},
		{"\xff", 1, ErrInvalidName},
		{"neg", -1, ErrInvalidSize},
		{"huge", MaxStreamSize + 1, ErrInvalidSize},
	} {
		if err := w.Add(tc.name, tc.size, strings.NewReader("x")); !errors.Is(err, tc.want) {
			t.Errorf("Add(%q, %d) = %v, want %v", tc.name, tc.size, err, tc.want)
		}
	}
}

func TestCloseSizeMismatch(t *testing.T) {
	for _, tc := range []struct {
		size int64
		data string
	}{
		{5, "abc"},
		{2, "abc"},
		{5000, strings.Repeat("a", 4999)},
		{5000, strings.Repeat("a", 5001)},
	} {
		w := NewWriter(io.Discard)
		w.Add("s", tc.size, strings.NewReader(tc.data))
		if err := w.Close(); !errors.Is(err, ErrInvalidSize) {
			t.Errorf("size %d with %d bytes: Close = %v, want ErrInvalidSize", tc.size, len(tc.data), err)
		}
	}
}

func TestCloseTwice(t *testing.T) {
	w := NewWriter(io.Discard)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); !errors.Is(err, ErrClosed) {
		t.Errorf("second Close = %v", err)
	}
	if err := w.Add("x", 0, nil); !errors.Is(err, ErrClosed) {
		t.Errorf("Add after Close = %v", err)
	}
}

func TestOpenMissing(t *testing.T) {
	file := build(t, msiCLSID, map[string][]byte{"a": []byte("x")})
	r, err := NewReader(bytes.NewReader(file), int64(len(file)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Open("b"); !errors.Is(err, ErrNotExist) {
		t.Errorf("Open missing = %v", err)
	}
}

// loggingReader records when a stream is first read.
type loggingReader struct {
	name string
	log  *[]string
	r    io.Reader
	read bool
}

func (l *loggingReader) Read(p []byte) (int, error) {
	if !l.read {
		l.read = true
		*l.log = append(*l.log, l.name)
	}
	return l.r.Read(p)
}

// TestReadOrder: Add reads nothing; Close reads each stream once, big
// streams first, then small ones, each group in directory order.
func TestReadOrder(t *testing.T) {
	var log []string
	w := NewWriter(io.Discard)
	for name, size := range map[string]int{"zz": 5000, "b": 10, "aaa": 100, "c": 9000, "BB": 4096} {
		lr := &loggingReader{name: name, log: &log, r: bytes.NewReader(make([]byte, size))}
		if err := w.Add(name, int64(size), lr); err != nil {
			t.Fatal(err)
		}
	}
	if len(log) != 0 {
		t.Fatalf("Add read %v", log)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if want := []string{"c", "BB", "zz", "b", "aaa"}; fmt.Sprint(log) != fmt.Sprint(want) {
		t.Errorf("read order %v, want %v", log, want)
	}
}
