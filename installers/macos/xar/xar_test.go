package xar

import (
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"crypto/x509"
	"encoding/binary"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

var created = time.Unix(1700000000, 0)

type testMember struct {
	h    Header
	data string
}

func build(t testing.TB, members []testMember) []byte {
	t.Helper()
	return buildSigned(t, nil, members)
}

var sample = []testMember{
	{Header{Name: "Distribution", Type: TypeFile, Mode: 0o644, Encoding: EncodingZlib}, "<installer-gui-script/>\n"},
	{Header{Name: "ctrld.pkg", Type: TypeDirectory, Mode: 0o700}, ""},
	{Header{Name: "ctrld.pkg/Payload", Type: TypeFile, Mode: 0o644}, strings.Repeat("payload bytes ", 1000)},
	{Header{Name: "ctrld.pkg/PackageInfo", Type: TypeFile, Mode: 0o644, Encoding: EncodingZlib}, "<pkg-info/>"},
	{Header{Name: "auto/made/parent", Type: TypeFile}, ""},
}

func open(t testing.TB, data []byte) *Reader {
	t.Helper()
	r, err := NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestRoundTrip(t *testing.T) {
	r := open(t, build(t, sample))
	var names []string
	for _, h := range r.Members() {
		names = append(names, h.Name+":"+h.Type)
	}
	want := "Distribution:file ctrld.pkg:directory ctrld.pkg/Payload:file ctrld.pkg/PackageInfo:file auto:directory auto/made:directory auto/made/parent:file"
	if strings.Join(names, " ") != want {
		t.Fatalf("members %v", names)
	}
	for _, m := range sample {
		if m.h.Type != TypeFile {
			continue
		}
		got, err := r.ReadFile(m.h.Name)
		if err != nil || string(got) != m.data {
			t.Errorf("%s: %v (%d bytes)", m.h.Name, err, len(got))
		}
	}
	if r.Created != "2023-11-14T22:13:20" {
		t.Errorf("creation time %q", r.Created)
	}
}

func TestHeaderAndDigestLayout(t *testing.T) {
	data := build(t, sample)
	if binary.BigEndian.Uint32(data) != magic || binary.BigEndian.Uint16(data[4:]) != 28 || binary.BigEndian.Uint16(data[6:]) != 1 || binary.BigEndian.Uint32(data[24:]) != 1 {
		t.Fatalf("header %x", data[:28])
	}
	zlen := binary.BigEndian.Uint64(data[8:])
	ztoc := data[28 : 28+zlen]
	sum := sha1.Sum(ztoc)
	if !bytes.Equal(sum[:], data[28+zlen:28+zlen+20]) {
		t.Fatal("heap does not start with SHA-1 of the compressed TOC")
	}
	zr, _ := zlib.NewReader(bytes.NewReader(ztoc))
	x, _ := io.ReadAll(zr)
	if uint64(len(x)) != binary.BigEndian.Uint64(data[16:]) {
		t.Fatal("uncompressed TOC length wrong")
	}
}

func TestReproducible(t *testing.T) {
	if !bytes.Equal(build(t, sample), build(t, sample)) {
		t.Fatal("two builds differ")
	}
}

func TestCorruptionIsDetected(t *testing.T) {
	data := build(t, sample)
	// Flip a byte inside the Payload's stored bytes.
	bad := append([]byte(nil), data...)
	i := bytes.Index(bad, []byte("payload bytes"))
	bad[i] ^= 0xff
	r := open(t, bad)
	if _, err := r.ReadFile("ctrld.pkg/Payload"); !errors.Is(err, ErrChecksum) {
		t.Fatalf("corrupt payload: %v", err)
	}
	// Flip a byte of the digest.
	zlen := binary.BigEndian.Uint64(data[8:])
	bad = append([]byte(nil), data...)
	bad[28+zlen] ^= 1
	if _, err := NewReader(bytes.NewReader(bad), int64(len(bad))); !errors.Is(err, ErrChecksum) {
		t.Fatalf("corrupt digest: %v", err)
	}
}

func TestBsdtarReadsOurArchive(t *testing.T) {
	bsdtar := testenv.RequireTool(t, "bsdtar")
	data := build(t, sample)
	path := filepath.Join(t.TempDir(), "a.pkg")
	os.WriteFile(path, data, 0o644)
	out, err := exec.Command(bsdtar, "-tvf", path).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "ctrld.pkg/Payload") {
		t.Fatalf("bsdtar -t: %v\n%s", err, out)
	}
	dir := t.TempDir()
	if out, err := exec.Command(bsdtar, "-xf", path, "-C", dir).CombinedOutput(); err != nil {
		t.Fatalf("bsdtar -x: %v\n%s", err, out)
	}
	for _, m := range sample {
		if m.h.Type == TypeFile {
			got, _ := os.ReadFile(filepath.Join(dir, m.h.Name))
			if string(got) != m.data {
				t.Errorf("%s extracted wrong", m.h.Name)
			}
		}
	}
	// bsdtar verifies testMember checksums on extraction.
	bad := append([]byte(nil), data...)
	bad[bytes.Index(bad, []byte("payload bytes"))] ^= 0xff
	os.WriteFile(path, bad, 0o644)
	if out, err := exec.Command(bsdtar, "-xf", path, "-C", t.TempDir()).CombinedOutput(); err == nil {
		t.Fatalf("bsdtar accepted a corrupt testMember:\n%s", out)
	}
}

// The first 1,764 bytes of Apple's munkitools product archive: header,
// compressed TOC and digest. Members' data is cut off.
func TestReadsAppleArchivePrefix(t *testing.T) {
	dir := testenv.Fixture(t, "macos/munkitools-2.8.1.2847")
	data, err := os.ReadFile(filepath.Join(dir, "xar-prefix.bin"))
	if err != nil {
		t.Fatal(err)
	}
	r := open(t, data)
	byName := map[string]Header{}
	for _, h := range r.Members() {
		byName[h.Name] = h
	}
	dirs := 0
	for _, h := range byName {
		if h.Type == TypeDirectory {
			dirs++
		}
	}
	if len(byName) != 18 || dirs != 4 || byName["Distribution"].Type != TypeFile || byName["munkitools_core-2.8.1.2847.pkg"].Type != TypeDirectory {
		t.Fatalf("members: %d, %d directories", len(byName), dirs)
	}
	if p := byName["munkitools_launchd-2.0.0.1969.pkg/Payload"]; p.Encoding != EncodingNone || p.Size != 990 {
		t.Fatalf("launchd Payload: %+v", p)
	}
	if b := byName["munkitools_launchd-2.0.0.1969.pkg/Bom"]; b.Encoding != EncodingZlib {
		t.Fatalf("Bom encoding %q", b.Encoding)
	}
	if _, err := r.ReadFile("Distribution"); !errors.Is(err, ErrFormat) {
		t.Fatalf("reading data past the end: %v", err)
	}
	// The full inflated TOC is also a fixture: the same structs read it.
	toc, _ := os.ReadFile(filepath.Join(dir, "toc.xml"))
	var doc tocDoc
	if err := xml.Unmarshal(toc, &doc); err != nil || len(doc.TOC.Files) == 0 {
		t.Fatalf("toc.xml: %v", err)
	}
}

// productsign's TOC (testdata/macos/zoom, see its README): the reader's
// structs find both signatures and their certificate chains.
func TestReadsSignedAppleTOC(t *testing.T) {
	toc, err := os.ReadFile(testenv.Fixture(t, "macos/zoom/toc.xml"))
	if err != nil {
		t.Fatal(err)
	}
	var doc tocDoc
	if err := xml.Unmarshal(toc, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.TOC.Checksum.Style != "sha1" || len(doc.TOC.Files) == 0 {
		t.Fatalf("signed TOC: %+v", doc.TOC.Checksum)
	}
	x := &Reader{size: 1 << 40}
	if err := x.collectSignatures(doc); err != nil {
		t.Fatal(err)
	}
	sigs := x.Signatures()
	if len(sigs) != 2 || sigs[0].Style != StyleRSA || sigs[0].Offset != 20 || sigs[0].Size != 256 ||
		sigs[1].Style != StyleCMS || sigs[1].Offset != 276 || sigs[1].Size != 9216 {
		t.Fatalf("signatures %+v", sigs)
	}
	for _, s := range sigs {
		if len(s.Certificates) != 3 {
			t.Fatalf("%s: %d certificates", s.Style, len(s.Certificates))
		}
		leaf, err := x509.ParseCertificate(s.Certificates[0])
		if err != nil || !strings.HasPrefix(leaf.Subject.CommonName, "Developer ID Installer: ") {
			t.Fatalf("%s leaf: %v", s.Style, err)
		}
	}
}

func FuzzReader(f *testing.F) {
	f.Add(build(f, sample))
	s, _ := testSigner(f)
	f.Add(buildSigned(f, s, sample))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return
		}
		for _, sig := range r.Signatures() {
			r.SignatureBytes(sig)
		}
		r.VerifyRSA()
		for _, h := range r.Members() {
			if h.Type == TypeFile {
				if rd, err := r.Open(h.Name); err == nil {
					io.Copy(io.Discard, io.LimitReader(rd, 1<<20))
				}
			}
		}
	})
}
