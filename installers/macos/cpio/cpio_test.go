package cpio

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

type entry struct {
	h    Header
	data string
}

func writeAll(t testing.TB, entries []entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := NewWriter(&buf)
	for _, e := range entries {
		h := e.h
		if h.IsRegular() {
			h.Size = int64(len(e.data))
		}
		if err := w.WriteHeader(&h); err != nil {
			t.Fatal(err)
		}
		if h.IsRegular() {
			if _, err := io.WriteString(w, e.data); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func readAll(t testing.TB, data []byte) []entry {
	t.Helper()
	r := NewReader(bytes.NewReader(data))
	var out []entry
	for {
		h, err := r.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(r)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, entry{*h, string(body)})
	}
}

// The payload of the spec's worked example (§6.15): its SHA-256 pins the
// exact bytes, padding included.
var worked = []entry{
	{Header{Name: ".", Mode: TypeDir | 0o755, NLink: 3, Ino: 1, ModTime: 1700000000}, ""},
	{Header{Name: "./opt", Mode: TypeDir | 0o755, NLink: 2, Ino: 2, ModTime: 1700000000}, ""},
	{Header{Name: "./opt/hello.txt", Mode: TypeRegular | 0o644, GID: 80, NLink: 1, Ino: 3, ModTime: 1700000000}, "hello, world\n"},
}

func TestWorkedExampleBytes(t *testing.T) {
	data := writeAll(t, worked)
	sum := sha256.Sum256(data)
	if len(data) != 512 || hex.EncodeToString(sum[:]) != "ef4ba407be3f2d3c97af60108e1f599725362fa62b77ea95ad0150107b4c22eb" {
		t.Fatalf("got %d bytes, sha256 %x", len(data), sum)
	}
}

func TestRoundTrip(t *testing.T) {
	in := append(worked, entry{Header{Name: "./opt/link", Mode: TypeSymlink | 0o755, NLink: 1, Ino: 4, Linkname: "hello.txt"}, ""},
		entry{Header{Name: "./opt/empty", Mode: TypeRegular | 0o600, NLink: 1, Ino: 5}, ""})
	out := readAll(t, writeAll(t, in))
	if len(out) != len(in) {
		t.Fatalf("got %d entries", len(out))
	}
	for i := range in {
		want := in[i]
		want.h.Size = int64(len(want.data))
		if out[i].h != want.h || out[i].data != want.data {
			t.Errorf("entry %d: got %+v %q, want %+v %q", i, out[i].h, out[i].data, want.h, want.data)
		}
	}
}

func TestWriterRejectsBadUse(t *testing.T) {
	w := NewWriter(io.Discard)
	w.WriteHeader(&Header{Name: "./f", Mode: TypeRegular | 0o644, Size: 3})
	if _, err := w.Write([]byte("four")); err != ErrWriteTooLong {
		t.Fatalf("overlong write: %v", err)
	}
	if err := w.WriteHeader(&Header{Name: "./g", Mode: TypeRegular}); err != ErrShortWrite {
		t.Fatalf("short entry: %v", err)
	}
	if err := NewWriter(io.Discard).WriteHeader(&Header{Name: "./big", Mode: TypeRegular, UID: 0o1000000}); err == nil {
		t.Fatal("uid over 0777777 accepted")
	}
}

func TestGNUCpioReadsOurArchive(t *testing.T) {
	cpio := testenv.RequireTool(t, "cpio")
	data := writeAll(t, worked)
	cmd := exec.Command(cpio, "-itv", "--quiet")
	cmd.Stdin = bytes.NewReader(data)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{"drwxr-xr-x", ".\n", "./opt\n", "-rw-r--r--   1 root     80             13", "./opt/hello.txt"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("cpio -itv lacks %q:\n%s", want, out)
		}
	}
	dir := t.TempDir()
	extract := exec.Command(cpio, "-idm", "--quiet")
	extract.Dir, extract.Stdin = dir, bytes.NewReader(data)
	if out, err := extract.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "opt", "hello.txt")); string(got) != "hello, world\n" {
		t.Fatalf("extracted %q", got)
	}
}

func TestReadsGNUCpioOutput(t *testing.T) {
	cpio := testenv.RequireTool(t, "cpio")
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
	os.WriteFile(filepath.Join(dir, "sub", "f"), []byte("gnu data"), 0o640)
	os.Symlink("f", filepath.Join(dir, "sub", "l"))
	cmd := exec.Command(cpio, "-o", "-H", "odc", "--quiet")
	cmd.Dir, cmd.Stdin = dir, strings.NewReader("sub\nsub/f\nsub/l\n")
	data, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	got := readAll(t, data)
	if len(got) != 3 || got[1].data != "gnu data" || got[1].h.Mode != TypeRegular|0o640 || got[2].h.Linkname != "f" {
		t.Fatalf("got %+v", got)
	}
}

func TestReadsApplePayload(t *testing.T) {
	path := testenv.Fixture(t, "macos/munkitools-2.8.1.2847/munkitools_launchd-2.0.0.1969.pkg/Payload")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(gz)
	entries := readAll(t, data)
	if len(entries) != 11 || entries[0].h.Name != "." {
		t.Fatalf("got %d entries, first %q", len(entries), entries[0].h.Name)
	}
	var total int
	for _, e := range entries {
		if e.h.IsRegular() {
			total += len(e.data)
		}
	}
	if total != 5438 {
		t.Fatalf("file bytes %d, want 5438", total)
	}
}

func FuzzReader(f *testing.F) {
	f.Add(writeAll(f, worked))
	f.Add([]byte("070707000000000000000000000000000000000000000000000000000000077777777777foo"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := NewReader(bytes.NewReader(data))
		for range 1000 {
			if _, err := r.Next(); err != nil {
				return
			}
			io.Copy(io.Discard, r)
		}
	})
}
