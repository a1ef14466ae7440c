package cab

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

func FuzzReader(f *testing.F) {
	f.Add(build(f, nil))
	f.Add(build(f, []testFile{{"a", textLike(1, blockSize+10)}, {"bb", pseudoRandom(2, 300)}, {"empty", nil}}))
	f.Add(build(f, []testFile{{"ctrld.exe", []byte("MZ")}}))
	f.Add(twoFolderCabinet(f, textLike(1, blockSize+7), pseudoRandom(2, 100)))
	f.Add(historyCabinet(f, append(textLike(5, blockSize), textLike(5, 100)...)))
	f.Fuzz(func(t *testing.T, cab []byte) {
		r, err := NewReader(bytes.NewReader(cab), int64(len(cab)))
		if err != nil {
			checkClassified(t, err)
			return
		}
		files, err := extract(r)
		if err != nil {
			checkClassified(t, err)
			return
		}
		var out bytes.Buffer
		w := NewWriter(&out)
		for i, f := range r.Files() {
			fw, err := w.Create(f.FileHeader)
			if err != nil {
				w.Close()
				return // a name or date this writer refuses to write
			}
			if _, err := fw.Write(files[i]); err != nil {
				t.Fatalf("rewrite %q: %v", f.Name, err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatalf("Close: %v", err)
		}
		again, err := NewReader(bytes.NewReader(out.Bytes()), int64(out.Len()))
		if err != nil {
			t.Fatalf("rewritten cabinet: %v", err)
		}
		back, err := extract(again)
		if err != nil {
			t.Fatalf("rewritten cabinet: %v", err)
		}
		for i, f := range again.Files() {
			old := r.Files()[i].FileHeader
			old.Attributes |= f.Attributes & AttrNameUTF8
			if f.FileHeader != old || !bytes.Equal(back[i], files[i]) {
				t.Fatalf("file %d: %+v, want %+v", i, f.FileHeader, old)
			}
		}
	})
}

func extract(r *Reader) ([][]byte, error) {
	var out [][]byte
	for _, f := range r.Files() {
		rc, err := f.Open()
		if err != nil {
			return nil, err
		}
		data, err := io.ReadAll(rc)
		if err != nil {
			return nil, err
		}
		out = append(out, data)
	}
	return out, nil
}

func checkClassified(t *testing.T, err error) {
	t.Helper()
	for _, known := range []error{ErrNotCabinet, ErrCorrupt, ErrUnsupported, ErrChecksum} {
		if errors.Is(err, known) {
			return
		}
	}
	t.Fatalf("unclassified error: %v", err)
}
