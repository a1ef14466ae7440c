package cfb

import (
	"bytes"
	"io"
	"testing"
)

// BenchmarkWrite50MB writes a package-like file: one 50 MB cabinet
// stream and a few small tables.
func BenchmarkWrite50MB(b *testing.B) {
	cab := pseudoRandom(1, 50<<20)
	b.SetBytes(int64(len(cab)))
	b.ReportAllocs()
	for b.Loop() {
		w := NewWriter(io.Discard)
		w.Add("cab", int64(len(cab)), bytes.NewReader(cab))
		for _, name := range []string{"t1", "t2", "t3"} {
			w.Add(name, 100, bytes.NewReader(cab[:100]))
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRead50MB(b *testing.B) {
	var file bytes.Buffer
	w := NewWriter(&file)
	cab := pseudoRandom(1, 50<<20)
	w.Add("cab", int64(len(cab)), bytes.NewReader(cab))
	w.Close()
	b.SetBytes(int64(len(cab)))
	b.ReportAllocs()
	for b.Loop() {
		r, err := NewReader(bytes.NewReader(file.Bytes()), int64(file.Len()))
		if err != nil {
			b.Fatal(err)
		}
		f, _ := r.Open("cab")
		if _, err := io.Copy(io.Discard, f); err != nil {
			b.Fatal(err)
		}
	}
}
