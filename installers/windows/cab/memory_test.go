package cab

import (
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

const flatLimit = 8 << 20

// TestMemoryFlat writes and reads a 40 MB file streamed from a generator:
// neither side may allocate anything near the payload's size.
func TestMemoryFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("40 MB")
	}
	const size = 40 << 20
	path := filepath.Join(t.TempDir(), "big.cab")
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	wrote := testenv.Allocated(func() {
		w := NewWriter(out)
		fw, err := w.Create(FileHeader{Name: "big.bin", Size: size, Modified: pinned})
		if err == nil {
			_, err = io.Copy(fw, io.LimitReader(rand.NewChaCha8([32]byte{1}), size))
		}
		if err == nil {
			err = w.Close()
		}
		if err != nil {
			t.Fatal(err)
		}
	})
	if wrote > flatLimit {
		t.Errorf("writing %d bytes allocated %d", size, wrote)
	}
	info, _ := out.Stat()
	var n int64
	read := testenv.Allocated(func() {
		r, err := NewReader(out, info.Size())
		if err != nil {
			t.Fatal(err)
		}
		rc, err := r.Files()[0].Open()
		if err != nil {
			t.Fatal(err)
		}
		if n, err = io.Copy(io.Discard, rc); err != nil {
			t.Fatal(err)
		}
	})
	if n != size {
		t.Errorf("read back %d bytes", n)
	}
	if read > flatLimit {
		t.Errorf("reading %d bytes allocated %d", size, read)
	}
	t.Logf("allocated %d bytes to write, %d to read %d", wrote, read, size)
}
