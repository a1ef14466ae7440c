package cfb

import (
	"bytes"
	"errors"
	"io"
	"maps"
	"testing"
)

func FuzzReader(f *testing.F) {
	f.Add(build(f, msiCLSID, nil))
	f.Add(build(f, msiCLSID, map[string][]byte{
		"big": pseudoRandom(1, 1500), "mid": pseudoRandom(2, 900),
		"tiny": pseudoRandom(3, 100), "small": pseudoRandom(4, 5000), "zero": nil,
	}))
	example := map[string][]byte{}
	for i, s := range exampleStreams[3:] {
		example[string(s.units)] = pseudoRandom(uint64(i), int(s.size))
	}
	f.Add(build(f, msiCLSID, example))
	f.Fuzz(func(t *testing.T, file []byte) {
		r, err := NewReader(bytes.NewReader(file), int64(len(file)))
		if err != nil {
			if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrNotCompoundFile) {
				t.Fatalf("unclassified error: %v", err)
			}
			return
		}
		streams, err := contents(r)
		if err != nil {
			t.Fatalf("NewReader accepted a stream Open cannot read: %v", err)
		}
		var out bytes.Buffer
		w := NewWriter(&out)
		w.SetRootCLSID(r.RootCLSID())
		for _, s := range r.Streams() {
			if err := w.Add(s.Name, s.Size, bytes.NewReader(streams[s.Name])); err != nil {
				return // a name this writer refuses to write
			}
		}
		if err := w.Close(); err != nil {
			t.Fatalf("Close: %v", err)
		}
		again, err := NewReader(bytes.NewReader(out.Bytes()), int64(out.Len()))
		if err != nil {
			t.Fatalf("rewritten file: %v", err)
		}
		back, err := contents(again)
		if err != nil {
			t.Fatalf("rewritten file: %v", err)
		}
		if again.RootCLSID() != r.RootCLSID() || !maps.EqualFunc(back, streams, bytes.Equal) {
			t.Fatal("rewritten file differs")
		}
	})
}

func contents(r *Reader) (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, s := range r.Streams() {
		f, err := r.Open(s.Name)
		if err != nil {
			return nil, err
		}
		data, err := io.ReadAll(f)
		if err != nil {
			return nil, err
		}
		out[s.Name] = data
	}
	return out, nil
}
