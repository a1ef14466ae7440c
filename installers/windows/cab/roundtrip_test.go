package cab

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"
)

var pinned = time.Date(2026, 11, 30, 16, 44, 18, 0, time.UTC)

type testFile struct {
	name string
	data []byte
}

func pseudoRandom(seed uint64, n int) []byte {
	rng := rand.New(rand.NewPCG(seed, seed))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

// textLike is compressible data, so blocks really are deflated.
func textLike(seed uint64, n int) []byte {
	rng := rand.New(rand.NewPCG(seed, 1))
	words := []string{"ctrld ", "resolver ", "upstream ", "DNS ", "\n", "listener "}
	var b bytes.Buffer
	for b.Len() < n {
		b.WriteString(words[rng.IntN(len(words))])
	}
	return b.Bytes()[:n]
}

func build(t testing.TB, files []testFile) []byte {
	t.Helper()
	var out bytes.Buffer
	w := NewWriter(&out)
	for _, f := range files {
		fw, err := w.Create(FileHeader{Name: f.name, Size: int64(len(f.data)), Modified: pinned, Attributes: 0x20})
		if err != nil {
			t.Fatalf("Create(%q): %v", f.name, err)
		}
		if _, err := fw.Write(f.data); err != nil {
			t.Fatalf("write %q: %v", f.name, err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	return out.Bytes()
}

func readAll(t testing.TB, cab []byte) []testFile {
	t.Helper()
	r, err := NewReader(bytes.NewReader(cab), int64(len(cab)))
	if err != nil {
		t.Fatalf("NewReader: %v", err)
	}
	var got []testFile
	for _, f := range r.Files() {
		rc, err := f.Open()
		if err != nil {
			t.Fatalf("Open(%q): %v", f.Name, err)
		}
		data, err := io.ReadAll(rc)
		if err != nil {
			t.Fatalf("read %q: %v", f.Name, err)
		}
		if int64(len(data)) != f.Size {
			t.Fatalf("%q: %d bytes read, %d listed", f.Name, len(data), f.Size)
		}
		got = append(got, testFile{f.Name, data})
	}
	return got
}

func checkRoundTrip(t *testing.T, files []testFile) []byte {
	t.Helper()
	cab := build(t, files)
	got := readAll(t, cab)
	if len(got) != len(files) {
		t.Fatalf("read %d files, wrote %d", len(got), len(files))
	}
	for i, f := range files {
		if got[i].name != f.name || !bytes.Equal(got[i].data, f.data) {
			t.Errorf("file %d: got %q (%d bytes), want %q (%d bytes)", i, got[i].name, len(got[i].data), f.name, len(f.data))
		}
	}
	return cab
}

func roundTripCases() map[string][]testFile {
	return map[string][]testFile{
		"empty file":    {{"empty", nil}},
		"one byte":      {{"one", []byte{0x42}}},
		"one block":     {{"block", textLike(1, blockSize)}},
		"block and one": {{"blockplus", pseudoRandom(2, blockSize+1)}},
		"several": {
			{"a.txt", textLike(3, 1000)},
			{"b.bin", pseudoRandom(4, 3*blockSize+77)},
			{"empty", nil},
			{"c.txt", textLike(5, 2*blockSize-5)},
		},
		"no files": nil,
	}
}

func TestRoundTrip(t *testing.T) {
	for name, files := range roundTripCases() {
		t.Run(name, func(t *testing.T) { checkRoundTrip(t, files) })
	}
}

func TestRoundTripLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("30 MB")
	}
	checkRoundTrip(t, []testFile{{"big.bin", pseudoRandom(7, 30<<20)}, {"tail", textLike(8, 5000)}})
}

// TestReproducible writes the same files twice, and once more on one
// core: blocks are compressed in parallel, and the bytes must not depend
// on it.
func TestReproducible(t *testing.T) {
	files := append(roundTripCases()["several"], testFile{"more", textLike(9, 20*blockSize+3)})
	first := build(t, files)
	if !bytes.Equal(build(t, files), first) {
		t.Fatal("equal inputs give different cabinets")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	if !bytes.Equal(build(t, files), first) {
		t.Fatal("one core gives a different cabinet")
	}
}

func TestMetadataRoundTrip(t *testing.T) {
	var out bytes.Buffer
	w := NewWriter(&out)
	headers := []FileHeader{
		{Name: "ctrld.exe", Size: 3, Modified: pinned, Attributes: 0x20},
		{Name: "ro", Size: 0, Modified: time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC), Attributes: 0x01},
		{Name: "ünïcode", Size: 1, Modified: time.Date(2107, 12, 31, 23, 59, 58, 0, time.UTC)},
	}
	for _, h := range headers {
		fw, err := w.Create(h)
		if err != nil {
			t.Fatal(err)
		}
		fw.Write(bytes.Repeat([]byte("x"), int(h.Size)))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := NewReader(bytes.NewReader(out.Bytes()), int64(out.Len()))
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range r.Files() {
		want := headers[i]
		if want.Name == "ünïcode" {
			want.Attributes |= AttrNameUTF8
		}
		if f.FileHeader != want {
			t.Errorf("file %d: %+v, want %+v", i, f.FileHeader, want)
		}
	}
}

func TestWriterErrors(t *testing.T) {
	for _, tc := range []struct {
		h    FileHeader
		want error
	}{
		{FileHeader{Name: ""}, ErrInvalidName},
		{FileHeader{Name: "a\x00b"}, ErrInvalidName},
		{FileHeader{Name: strings.Repeat("n", maxName+1)}, ErrInvalidName},
		{FileHeader{Name: "neg", Size: -1}, ErrTooLarge},
		{FileHeader{Name: "huge", Size: 1 << 32}, ErrTooLarge},
		{FileHeader{Name: "old", Modified: time.Date(1979, 12, 31, 0, 0, 0, 0, time.UTC)}, ErrInvalidTime},
	} {
		if _, err := NewWriter(io.Discard).Create(tc.h); !errors.Is(err, tc.want) {
			t.Errorf("Create(%q, %d) = %v, want %v", tc.h.Name, tc.h.Size, err, tc.want)
		}
	}
}

func TestWriterSizeMismatch(t *testing.T) {
	w := NewWriter(io.Discard)
	fw, _ := w.Create(FileHeader{Name: "a", Size: 2})
	if _, err := fw.Write([]byte("abc")); !errors.Is(err, ErrSize) {
		t.Errorf("long write = %v", err)
	}
	w = NewWriter(io.Discard)
	fw, _ = w.Create(FileHeader{Name: "a", Size: 2})
	fw.Write([]byte("a"))
	if _, err := w.Create(FileHeader{Name: "b"}); !errors.Is(err, ErrSize) {
		t.Errorf("Create after short file = %v", err)
	}
	if err := w.Close(); !errors.Is(err, ErrSize) {
		t.Errorf("Close after short file = %v", err)
	}
	if err := w.Close(); !errors.Is(err, ErrClosed) {
		t.Errorf("second Close = %v", err)
	}
}

func TestChecksumMismatch(t *testing.T) {
	cab := build(t, []testFile{{"a", textLike(1, 5000)}})
	dataAt := headerSize + folderSize + fileEntrySize + 2
	cab[dataAt+dataHeader+10] ^= 0xFF
	r, err := NewReader(bytes.NewReader(cab), int64(len(cab)))
	if err != nil {
		t.Fatal(err)
	}
	rc, err := r.Files()[0].Open()
	if err == nil {
		_, err = io.ReadAll(rc)
	}
	if !errors.Is(err, ErrChecksum) {
		t.Errorf("flipped data byte: %v, want ErrChecksum", err)
	}
}

func ExampleWriter() {
	var out bytes.Buffer
	w := NewWriter(&out)
	fw, _ := w.Create(FileHeader{Name: "hello.txt", Size: 5, Modified: pinned, Attributes: 0x20})
	fw.Write([]byte("hello"))
	w.Close()
	r, _ := NewReader(bytes.NewReader(out.Bytes()), int64(out.Len()))
	for _, f := range r.Files() {
		rc, _ := f.Open()
		data, _ := io.ReadAll(rc)
		fmt.Println(f.Name, string(data))
	}
	// Output: hello.txt hello
}

// TestOpenOrder reads files in reverse and interleaved: each reader gets
// its own bytes whichever block reader it uses.
func TestOpenOrder(t *testing.T) {
	files := roundTripCases()["several"]
	cab := build(t, files)
	r, err := NewReader(bytes.NewReader(cab), int64(len(cab)))
	if err != nil {
		t.Fatal(err)
	}
	all := r.Files()
	readers := make([]io.Reader, len(all))
	for i := len(all) - 1; i >= 0; i-- {
		if readers[i], err = all[i].Open(); err != nil {
			t.Fatal(err)
		}
	}
	got := make([][]byte, len(all))
	for progress := true; progress; {
		progress = false
		for i, rd := range readers {
			buf := make([]byte, 1000)
			n, _ := rd.Read(buf)
			got[i] = append(got[i], buf[:n]...)
			progress = progress || n > 0
		}
	}
	for i, f := range files {
		if !bytes.Equal(got[i], f.data) {
			t.Errorf("file %q: %d bytes, want %d", f.name, len(got[i]), len(f.data))
		}
	}
}

// TestSequentialExtractionContinues: opening the next file after reading
// one to its end continues the folder instead of inflating it again.
func TestSequentialExtractionContinues(t *testing.T) {
	cab := build(t, []testFile{{"a", textLike(1, 3*blockSize)}, {"b", textLike(2, 10)}})
	r, err := NewReader(bytes.NewReader(cab), int64(len(cab)))
	if err != nil {
		t.Fatal(err)
	}
	first, _ := r.Files()[0].Open()
	io.Copy(io.Discard, first)
	parked := r.idle[0]
	if parked == nil || parked.read != 3 {
		t.Fatalf("after the first file, parked reader %+v", parked)
	}
	second, err := r.Files()[1].Open()
	if err != nil {
		t.Fatal(err)
	}
	if data, _ := io.ReadAll(second); !bytes.Equal(data, textLike(2, 10)) {
		t.Errorf("second file %q", data)
	}
	if parked.read != 4 {
		t.Errorf("second file read %d blocks in all, want the one block after the first file's", parked.read)
	}
}
