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
	cabextractReads(t, toolFiles())
}

func TestGcabAcceptsWriterOutput(t *testing.T) {
	gcabReads(t, toolFiles())
}

// cabextractReads checks that libmspack tests and extracts the files as
// written.
func cabextractReads(t *testing.T, files []testFile) {
	t.Helper()
	tool := testenv.RequireTool(t, "cabextract")
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

// gcabReads checks that gcab lists and extracts the files as written.
func gcabReads(t *testing.T, files []testFile) {
	t.Helper()
	tool := testenv.RequireTool(t, "gcab")
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

// Both decoders read whatever the writer is given: random data of many
// seeds and sizes, incompressible or highly repetitive, and real Go
// binaries (the Windows ctrld-install of each architecture among them).
func TestDecodersReadArbitraryContent(t *testing.T) {
	sets := map[string]func(*testing.T) []testFile{
		"random":   func(*testing.T) []testFile { return arbitraryFiles() },
		"binaries": realBinaries,
	}
	for name, files := range sets {
		t.Run(name, func(t *testing.T) {
			files := files(t)
			t.Run("cabextract", func(t *testing.T) { cabextractReads(t, files) })
			t.Run("gcab", func(t *testing.T) { gcabReads(t, files) })
		})
	}
}

func arbitraryFiles() []testFile {
	var files []testFile
	for seed := uint64(1); seed <= 6; seed++ {
		size := int(seed)*blockSize*3/2 + int(seed)*7
		files = append(files,
			testFile{fmt.Sprintf("random%d.bin", seed), pseudoRandom(seed, size)},
			testFile{fmt.Sprintf("strided%d.bin", seed), strided(seed, size)},
			testFile{fmt.Sprintf("text%d.txt", seed), textLike(seed, size)},
		)
	}
	return append(files,
		testFile{"zeros.bin", make([]byte, 5*blockSize+1)},
		testFile{"strided-short.bin", strided(2, 15881)},
	)
}

// realBinaries builds ctrld-install for Windows on every architecture the
// MSI ships, and the demo ctrld, as the release builds them.
func realBinaries(t *testing.T) []testFile {
	if testing.Short() {
		t.Skip("-short: builds four binaries")
	}
	flags := []string{"-trimpath", "-ldflags", "-s -w -buildid="}
	var files []testFile
	for _, b := range []struct{ arch, pkg, name string }{
		{"arm64", "./wrapper", "ctrld_install_arm64.exe"},
		{"amd64", "./wrapper", "ctrld_install_amd64.exe"},
		{"386", "./wrapper", "ctrld_install_386.exe"},
		{"arm64", "./testdata/fakectrld", "ctrld_arm64.exe"},
	} {
		out := filepath.Join(t.TempDir(), b.name)
		if err := testenv.Build(out, b.pkg, flags, "GOOS=windows", "GOARCH="+b.arch); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, testFile{b.name, data})
	}
	return files
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
