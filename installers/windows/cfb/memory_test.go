package cfb

import (
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// TestMemoryFlat streams a 60 MB stream from a generator into a file and
// back: the FAT is written from runs and the data is copied, so neither
// side allocates anything near the stream's size.
func TestMemoryFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("60 MB")
	}
	const size = 60 << 20
	const limit = 4 << 20
	out, err := os.Create(filepath.Join(t.TempDir(), "big.cfb"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	wrote := testenv.Allocated(func() {
		w := NewWriter(out)
		w.Add("cab", size, io.LimitReader(rand.NewChaCha8([32]byte{2}), size))
		w.Add("small", 10, io.LimitReader(rand.NewChaCha8([32]byte{3}), 10))
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	})
	info, _ := out.Stat()
	var n int64
	read := testenv.Allocated(func() {
		r, err := NewReader(out, info.Size())
		if err != nil {
			t.Fatal(err)
		}
		f, err := r.Open("cab")
		if err != nil {
			t.Fatal(err)
		}
		if n, err = io.Copy(io.Discard, f); err != nil {
			t.Fatal(err)
		}
	})
	if n != size {
		t.Errorf("read back %d bytes", n)
	}
	if wrote > limit || read > limit {
		t.Errorf("allocated %d bytes to write and %d to read %d", wrote, read, size)
	}
	t.Logf("allocated %d bytes to write, %d to read %d", wrote, read, size)
}
