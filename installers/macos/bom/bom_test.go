package bom

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/installers/macos/cpio"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

func TestCksumVectors(t *testing.T) {
	for in, want := range map[string]uint32{
		"": 0xFFFFFFFF, "a": 0x48C279FE, "123456789": 0x377A6011,
		"hello, world\n": 0x535FBD37, string(make([]byte, 300)): 0x14F1B695,
	} {
		if got := Checksum([]byte(in)); got != want {
			t.Errorf("cksum(%q) = %#x, want %#x", in, got, want)
		}
	}
}

// The cksum(1) tool is an independent oracle.
func TestCksumMatchesTool(t *testing.T) {
	tool := testenv.RequireTool(t, "cksum")
	data := bytes.Repeat([]byte("ctrld\x00\xff"), 10000)
	cmd := exec.Command(tool)
	cmd.Stdin = bytes.NewReader(data)
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	want, _ := strconv.ParseUint(strings.Fields(string(out))[0], 10, 32)
	var c Cksum
	c.Write(data[:777])
	c.Write(data[777:])
	if c.Sum32() != uint32(want) {
		t.Fatalf("streamed cksum %d, tool says %d", c.Sum32(), want)
	}
}

type item struct {
	h    Header
	data string
}

func build(t testing.TB, items []item) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := NewWriter(&buf)
	for _, it := range items {
		h := it.h
		if err := w.WriteHeader(&h); err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, it.data)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// The spec's worked example (§6.15) pins the whole layout.
func TestWorkedExampleBytes(t *testing.T) {
	data := build(t, []item{
		{Header{Name: ".", Mode: 0o040755, ModTime: 1700000000}, ""},
		{Header{Name: "./opt", Mode: 0o040755, ModTime: 1700000000}, ""},
		{Header{Name: "./opt/hello.txt", Mode: 0o100644, GID: 80, ModTime: 1700000000}, "hello, world\n"},
	})
	sum := sha256.Sum256(data)
	if len(data) != 13446 || hex.EncodeToString(sum[:]) != "5543ecf9d3c7def0dfdc8d1731270786dc65c005c03d85ea01d4dc527f97916b" {
		t.Fatalf("got %d bytes, sha256 %x", len(data), sum)
	}
}

func TestRoundTripManyPaths(t *testing.T) {
	items := []item{{Header{Name: ".", Mode: 0o040755}, ""}}
	for d := range 7 {
		dir := fmt.Sprintf("./d%d", d)
		items = append(items, item{Header{Name: dir, Mode: 0o040755, UID: 0, GID: 80}, ""})
		for f := range 100 {
			items = append(items, item{Header{Name: fmt.Sprintf("%s/f%03d", dir, f), Mode: 0o100644, ModTime: 42}, strings.Repeat("x", f)})
		}
	}
	items = append(items, item{Header{Name: "./d0/link", Mode: 0o120755, Linkname: "f001"}, ""})
	got, err := Read(build(t, items))
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Paths) != len(items) || got.NumberOfPaths != uint32(len(items)+1) {
		t.Fatalf("got %d paths (numberOfPaths %d), want %d", len(got.Paths), got.NumberOfPaths, len(items))
	}
	byName := map[string]Header{}
	for _, p := range got.Paths {
		byName[p.Name] = p
	}
	f := byName["./d3/f042"]
	if f.Size != 42 || f.Checksum != Checksum([]byte(strings.Repeat("x", 42))) || f.Mode != 0o100644 || f.ModTime != 42 || f.RecordLen != 35 {
		t.Fatalf("file record %+v", f)
	}
	l := byName["./d0/link"]
	if l.Linkname != "f001" || l.Size != 4 || l.RecordLen != 31+5+8 {
		t.Fatalf("symlink record %+v", l)
	}
	if d := byName["./d6"]; d.GID != 80 || d.RecordLen != 31 {
		t.Fatalf("dir record %+v", d)
	}
}

func TestWriterRejectsBadOrder(t *testing.T) {
	w := NewWriter(io.Discard)
	if err := w.WriteHeader(&Header{Name: "./a", Mode: 0o040755}); err != ErrNoRoot {
		t.Fatalf("no root: %v", err)
	}
	w = NewWriter(io.Discard)
	w.WriteHeader(&Header{Name: ".", Mode: 0o040755})
	if err := w.WriteHeader(&Header{Name: "./a/b", Mode: 0o100644}); err == nil {
		t.Fatal("child before parent accepted")
	}
}

func fixture(t *testing.T, parts ...string) []byte {
	data, err := os.ReadFile(testenv.Fixture(t, "macos/"+path.Join(parts...)))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestReadsAppleBOMs(t *testing.T) {
	for _, tc := range []struct {
		path        []string
		paths       int
		symlinks    int
		machoRecord int
	}{
		{[]string{"munkitools-2.8.1.2847", "munkitools_launchd-2.0.0.1969.pkg", "Bom"}, 11, 0, 0},
		{[]string{"munkitools-2.8.1.2847", "munkitools_app-4.2.2759.pkg", "Bom"}, 218, 1, 3},
		{[]string{"munkitools-2.8.1.2847", "munkitools_core-2.8.1.2847.pkg", "Bom"}, 37, 0, -1},
		{[]string{"munkitools-2.8.1.2847", "munkitools_admin-2.8.1.2847.pkg", "Bom"}, 13, 0, -1},
		{[]string{"python-applications.bom"}, 54, 1, -1},
	} {
		t.Run(filepath.Join(tc.path...), func(t *testing.T) {
			b, err := Read(fixture(t, tc.path...))
			if err != nil {
				t.Fatal(err)
			}
			if len(b.Paths) != tc.paths || b.Paths[0].Name != "." || b.NumberOfPaths != uint32(tc.paths+1) {
				t.Fatalf("%d paths, first %q, numberOfPaths %d", len(b.Paths), b.Paths[0].Name, b.NumberOfPaths)
			}
			if strings.Join(b.Vars, ",") != "BomInfo,Paths,HLIndex,VIndex,Size64" || b.PathsBlockSize != 4096 || b.VIndexBlockSize != 128 {
				t.Fatalf("vars %v, block sizes %d/%d", b.Vars, b.PathsBlockSize, b.VIndexBlockSize)
			}
			symlinks, macho := 0, 0
			for _, p := range b.Paths {
				if p.Type() == TypeSymlink {
					symlinks++
					if p.Linkname == "" || p.Size != uint32(len(p.Linkname)) || p.Checksum != Checksum([]byte(p.Linkname)) {
						t.Errorf("symlink %s: %+v", p.Name, p)
					}
				}
				if p.Arch&0x3000 != 0 {
					macho++
				}
			}
			if symlinks != tc.symlinks || tc.machoRecord >= 0 && macho != tc.machoRecord {
				t.Fatalf("%d symlinks, %d Mach-O records", symlinks, macho)
			}
		})
	}
}

// A BOM written for the tree of Apple's launchd Payload must match Apple's
// own Bom for it field by field. The one known difference: Apple records
// HFS+ directory sizes, we record 0 (the spec allows it).
func TestMatchesAppleBOMForSameTree(t *testing.T) {
	dir := []string{"munkitools-2.8.1.2847", "munkitools_launchd-2.0.0.1969.pkg"}
	apple, err := Read(fixture(t, append(dir, "Bom")...))
	if err != nil {
		t.Fatal(err)
	}
	gz, err := gzip.NewReader(bytes.NewReader(fixture(t, append(dir, "Payload")...)))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w := NewWriter(&buf)
	r := cpio.NewReader(gz)
	for {
		h, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		w.WriteHeader(&Header{Name: h.Name, Mode: uint16(h.Mode), UID: uint32(h.UID), GID: uint32(h.GID), ModTime: uint32(h.ModTime), Linkname: h.Linkname})
		io.Copy(w, r)
	}
	w.Close()
	ours, err := Read(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if len(ours.Paths) != len(apple.Paths) {
		t.Fatalf("%d paths, Apple has %d", len(ours.Paths), len(apple.Paths))
	}
	for i, a := range apple.Paths {
		o := ours.Paths[i]
		if a.Type() == TypeDir {
			if o.Size != 0 {
				t.Errorf("%s: directory size %d", o.Name, o.Size)
			}
			a.Size = 0
		}
		if o != a {
			t.Errorf("path %d differs:\nours  %+v\napple %+v", i, o, a)
		}
	}
	if ours.InfoTotals[0] != 5438 || apple.InfoTotals[0] != 5438 {
		t.Errorf("BomInfo totals: ours %v, Apple %v", ours.InfoTotals, apple.InfoTotals)
	}
}

func FuzzRead(f *testing.F) {
	f.Add(build(f, []item{{Header{Name: ".", Mode: 0o040755}, ""}, {Header{Name: "./a", Mode: 0o100644}, "x"}}))
	f.Add([]byte("BOMStore\x00\x00\x00\x01"))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := Read(data)
		if err == nil && len(b.Paths) > len(data) {
			t.Fatalf("%d paths from %d bytes", len(b.Paths), len(data))
		}
	})
}
