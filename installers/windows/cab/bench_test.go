package cab

import (
	"bytes"
	"io"
	"testing"
)

// benchPayload is two 25 MB files like the project's binaries: part
// compressible text, part random bytes.
func benchPayload() [][]byte {
	var files [][]byte
	for i := range 2 {
		files = append(files, append(textLike(uint64(i), 15<<20), pseudoRandom(uint64(i), 10<<20)...))
	}
	return files
}

func BenchmarkWrite2x25MB(b *testing.B) {
	files := benchPayload()
	b.SetBytes(int64(len(files[0]) + len(files[1])))
	b.ReportAllocs()
	for b.Loop() {
		w := NewWriter(io.Discard)
		for i, data := range files {
			fw, err := w.Create(FileHeader{Name: []string{"ctrld.exe", "ctrld_install.exe"}[i], Size: int64(len(data)), Modified: pinned})
			if err != nil {
				b.Fatal(err)
			}
			fw.Write(data)
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRead2x25MB(b *testing.B) {
	files := benchPayload()
	var cab bytes.Buffer
	w := NewWriter(&cab)
	for i, data := range files {
		fw, _ := w.Create(FileHeader{Name: []string{"ctrld.exe", "ctrld_install.exe"}[i], Size: int64(len(data)), Modified: pinned})
		fw.Write(data)
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(files[0]) + len(files[1])))
	b.ReportAllocs()
	for b.Loop() {
		r, err := NewReader(bytes.NewReader(cab.Bytes()), int64(cab.Len()))
		if err != nil {
			b.Fatal(err)
		}
		for _, f := range r.Files() {
			rc, err := f.Open()
			if err != nil {
				b.Fatal(err)
			}
			if _, err := io.Copy(io.Discard, rc); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(cab.Len())/float64(len(files[0])+len(files[1])), "size/input")
}
