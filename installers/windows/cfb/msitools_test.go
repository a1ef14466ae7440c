package cfb

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// testPackage is a minimal product for wixl: two files, so the package
// holds tables, a summary stream and an embedded cabinet over 4096 bytes.
const testPackage = `<?xml version="1.0" encoding="utf-8"?>
<Wix xmlns="http://schemas.microsoft.com/wix/2006/wi">
  <Product Id="12345678-1234-1234-1234-123456789011" Name="CfbTest" Language="1033" Version="1.0.0"
           Manufacturer="Test" UpgradeCode="12345678-1234-1234-1234-123456789012">
    <Package InstallerVersion="200" Compressed="yes" InstallScope="perMachine"/>
    <Media Id="1" Cabinet="test.cab" EmbedCab="yes"/>
    <Directory Id="TARGETDIR" Name="SourceDir">
      <Directory Id="ProgramFilesFolder">
        <Directory Id="INSTALLDIR" Name="CfbTest">
          <Component Id="Main" Guid="12345678-1234-1234-1234-123456789013">
            <File Id="hello" Source="hello.txt"/>
            <File Id="big" Source="big.bin"/>
          </Component>
        </Directory>
      </Directory>
    </Directory>
    <Feature Id="F" Level="1"><ComponentRef Id="Main"/></Feature>
  </Product>
</Wix>
`

// wixlPackage builds the test package with wixl and returns its path.
func wixlPackage(t *testing.T) string {
	t.Helper()
	wixl := testenv.RequireTool(t, "wixl")
	dir := t.TempDir()
	for name, data := range map[string][]byte{
		"t.wxs":     []byte(testPackage),
		"hello.txt": []byte("hello\n"),
		"big.bin":   pseudoRandom(42, 20000),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(wixl, "-o", "t.msi", "t.wxs")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("wixl: %v\n%s", err, out)
	}
	return filepath.Join(dir, "t.msi")
}

func readFile(t *testing.T, path string) (*Reader, map[string][]byte) {
	t.Helper()
	file, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return readAll(t, file)
}

// packAlphabet is the 64 characters MSI stream-name packing encodes.
const packAlphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz._"

// unpack decodes an MSI packed stream name, so names can be compared with
// what msiinfo prints. It reports whether the name is a table's.
func unpack(name string) (string, bool) {
	var b strings.Builder
	table := false
	for i, c := range name {
		switch {
		case c == 0x4840 && i == 0:
			table = true
		case c >= 0x3800 && c < 0x4800:
			c -= 0x3800
			b.WriteByte(packAlphabet[c&0x3F])
			b.WriteByte(packAlphabet[c>>6&0x3F])
		case c >= 0x4800 && c < 0x4840:
			b.WriteByte(packAlphabet[c-0x4800])
		default:
			b.WriteRune(c)
		}
	}
	return b.String(), table
}

// TestReadWixlPackage reads a package wixl made: the Reader lists the
// streams msiinfo lists, with the bytes msiinfo extracts.
func TestReadWixlPackage(t *testing.T) {
	msiinfo := testenv.RequireTool(t, "msiinfo")
	path := wixlPackage(t)
	r, streams := readFile(t, path)
	if r.RootCLSID() != msiCLSID {
		t.Errorf("root CLSID %x", r.RootCLSID())
	}
	var ours []string
	for name, data := range streams {
		plain, table := unpack(name)
		if table {
			continue
		}
		ours = append(ours, plain)
		got, err := exec.Command(msiinfo, "extract", path, plain).Output()
		if err != nil {
			t.Errorf("msiinfo extract %q: %v", plain, err)
			continue
		}
		if !bytes.Equal(got, data) {
			t.Errorf("stream %q: Reader gives %d bytes, msiinfo %d", plain, len(data), len(got))
		}
	}
	out, err := exec.Command(msiinfo, "streams", path).Output()
	if err != nil {
		t.Fatalf("msiinfo streams: %v", err)
	}
	listed := strings.Fields(string(out))
	slices.Sort(listed)
	slices.Sort(ours)
	if !slices.Equal(ours, listed) || len(ours) < 2 {
		t.Errorf("Reader lists %q, msiinfo streams %q", ours, listed)
	}
}

// TestReadWixlPackageLikeOlefile compares every stream, tables included,
// with what olefile reads from the same wixl-made file.
func TestReadWixlPackageLikeOlefile(t *testing.T) {
	requireOlefile(t)
	path := wixlPackage(t)
	_, streams := readFile(t, path)
	file, _ := os.ReadFile(path)
	got := olefileListing(t, file)
	want := expectedListing("000C1084-0000-0000-C000-000000000046", streams)
	if got != want {
		t.Errorf("olefile and Reader differ\nolefile %.400s\nReader  %.400s", got, want)
	}
}

// TestRewriteWixlPackage copies a wixl package stream by stream through
// the Writer: msiinfo must still read its tables and cabinet.
func TestRewriteWixlPackage(t *testing.T) {
	msiinfo := testenv.RequireTool(t, "msiinfo")
	path := wixlPackage(t)
	r, streams := readFile(t, path)
	var out bytes.Buffer
	w := NewWriter(&out)
	w.SetRootCLSID(r.RootCLSID())
	for _, s := range r.Streams() {
		if err := w.Add(s.Name, s.Size, bytes.NewReader(streams[s.Name])); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	copyPath := filepath.Join(t.TempDir(), "copy.msi")
	if err := os.WriteFile(copyPath, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"tables"}, {"export", "File"}, {"export", "Component"}, {"suminfo"}} {
		want := msiinfoOutput(t, msiinfo, args, path)
		got := msiinfoOutput(t, msiinfo, args, copyPath)
		if got != want || want == "" {
			t.Errorf("msiinfo %v differs on the rewritten package\n got %q\nwant %q", args, got, want)
		}
	}
	cab, err := exec.Command(msiinfo, "extract", copyPath, "test.cab").Output()
	if err != nil || !bytes.Equal(cab, streams[packedName(streams, "test.cab")]) {
		t.Errorf("msiinfo extract test.cab from the rewritten package: %v, %d bytes", err, len(cab))
	}
}

func msiinfoOutput(t *testing.T, msiinfo string, args []string, path string) string {
	t.Helper()
	full := append(slices.Clone(args[:1]), path)
	full = append(full, args[1:]...)
	out, err := exec.Command(msiinfo, full...).Output()
	if err != nil {
		t.Fatalf("msiinfo %v: %v", full, err)
	}
	return string(out)
}

// packedName finds the stored name that unpacks to plain.
func packedName(streams map[string][]byte, plain string) string {
	for name := range streams {
		if got, _ := unpack(name); got == plain {
			return name
		}
	}
	return ""
}

func TestUnpack(t *testing.T) {
	// "te" "st" "." "ca" "b": pairs are low six bits first.
	cab := string([]rune{
		0x3800 + 55 + 40<<6, 0x3800 + 54 + 55<<6, 0x4800 + 62, 0x3800 + 38 + 36<<6, 0x4800 + 37,
	})
	if got, table := unpack(cab); got != "test.cab" || table {
		t.Errorf("unpack = %q, %v", got, table)
	}
	file := string([]rune{0x4840, 0x430F, 0x422F})
	if got, table := unpack(file); got != "File" || !table {
		t.Errorf("unpack(!File) = %q, %v", got, table)
	}
}
