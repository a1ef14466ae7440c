//go:build linux

package cab

import (
	"bytes"
	"crypto/md5"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

func toolFiles() []testFile {
	return []testFile{
		{"ctrld.exe", pseudoRandom(11, 3*blockSize+100)},
		{"ctrld_install.exe", textLike(12, 5*blockSize+3)},
		{"empty", nil},
		{"exact", textLike(13, blockSize)},
		{"one", []byte{7}},
	}
}

func writeCab(t *testing.T, files []testFile) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "out.cab")
	if err := os.WriteFile(path, build(t, files), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func run(t *testing.T, name string, args ...string) string {
	t.Helper()
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

func checkExtracted(t *testing.T, dir string, files []testFile) {
	t.Helper()
	for _, f := range files {
		got, err := os.ReadFile(filepath.Join(dir, f.name))
		if err != nil {
			t.Errorf("extracted %q: %v", f.name, err)
			continue
		}
		if !bytes.Equal(got, f.data) {
			t.Errorf("extracted %q differs: %d bytes, want %d", f.name, len(got), len(f.data))
		}
	}
}

func TestCabextractAcceptsWriterOutput(t *testing.T) {
	tool := testenv.RequireTool(t, "cabextract")
	files := toolFiles()
	path := writeCab(t, files)
	out := run(t, tool, "-t", path)
	if !strings.Contains(out, "All done, no errors.") {
		t.Errorf("cabextract -t:\n%s", out)
	}
	for _, f := range files {
		want := fmt.Sprintf("%s OK %x", f.name, md5.Sum(f.data))
		if !strings.Contains(strings.Join(strings.Fields(out), " "), want) {
			t.Errorf("cabextract -t does not say %q:\n%s", want, out)
		}
	}
	dir := t.TempDir()
	run(t, tool, "-q", "-d", dir, path)
	checkExtracted(t, dir, files)
}

func TestGcabAcceptsWriterOutput(t *testing.T) {
	tool := testenv.RequireTool(t, "gcab")
	files := toolFiles()
	path := writeCab(t, files)
	out := run(t, tool, "-t", path)
	for _, f := range files {
		if !strings.Contains(out, f.name) {
			t.Errorf("gcab -t does not list %q:\n%s", f.name, out)
		}
	}
	dir := t.TempDir()
	run(t, tool, "-x", "-C", dir, path)
	checkExtracted(t, dir, files)
}

// TestReadGcabCabinet reads an MSZIP cabinet that gcab made; gcab's
// blocks may refer to the previous block's history.
func TestReadGcabCabinet(t *testing.T) {
	tool := testenv.RequireTool(t, "gcab")
	dir := t.TempDir()
	files := []testFile{
		{"first.txt", textLike(21, 4*blockSize+11)},
		{"second.bin", pseudoRandom(22, blockSize+9)},
		{"third.txt", textLike(21, 3*blockSize)},
	}
	args := []string{"-c", "-z", "--nopath", filepath.Join(dir, "gcab.cab")}
	for _, f := range files {
		p := filepath.Join(dir, f.name)
		if err := os.WriteFile(p, f.data, 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, p)
	}
	run(t, tool, args...)
	cab, err := os.ReadFile(filepath.Join(dir, "gcab.cab"))
	if err != nil {
		t.Fatal(err)
	}
	if cab[headerSize+6] != compressMSZIP {
		t.Fatalf("gcab made compression type %d, want MSZIP", cab[headerSize+6])
	}
	got := readAll(t, cab)
	if len(got) != len(files) {
		t.Fatalf("read %d files from gcab's cabinet, want %d", len(got), len(files))
	}
	for i, f := range files {
		if got[i].name != f.name || !bytes.Equal(got[i].data, f.data) {
			t.Errorf("gcab file %d: got %q (%d bytes), want %q", i, got[i].name, len(got[i].data), f.name)
		}
	}
}
