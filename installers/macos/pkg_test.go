package macos

import (
	"bytes"
	"compress/gzip"
	"debug/macho"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/installers/macos/bom"
	"github.com/ctrld-install/ctrld-install/installers/macos/cpio"
	"github.com/ctrld-install/ctrld-install/installers/macos/xar"
	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

var epoch = time.Unix(1_700_000_000, 0).UTC()

// darwinBuilds are thin darwin builds of the fake ctrld and the wrapper
// (amd64, arm64), built once for every test; the build takes no t, so no
// test's t outlives it.
var darwinBuilds = sync.OnceValues(func() (map[string]string, error) {
	dir := filepath.Join(shared.Dir, "darwin-slices")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, arch := range []string{"amd64", "arm64"} {
		for name, pkg := range map[string]string{"ctrld": "./testdata/fakectrld", names.Wrapper: "./wrapper"} {
			path, err := goBuild(dir, name+"-"+arch, pkg, "GOOS=darwin", "GOARCH="+arch, "CGO_ENABLED=0")
			if err != nil {
				return nil, err
			}
			out[name+"-"+arch] = path
		}
	}
	return out, nil
})

func darwinSlices(t *testing.T) (ctrld, wrapper []string) {
	t.Helper()
	b, err := darwinBuilds()
	if err != nil {
		t.Fatal(err)
	}
	return []string{b["ctrld-amd64"], b["ctrld-arm64"]}, []string{b[names.Wrapper+"-amd64"], b[names.Wrapper+"-arm64"]}
}

// goBuild builds pkg into dir/name with the extra environment, stripped as
// the release strips it: half the bytes to compress in every package.
func goBuild(dir, name, pkg string, env ...string) (string, error) {
	out := filepath.Join(dir, name)
	return out, testenv.Build(out, pkg, []string{"-ldflags=-s -w"}, env...)
}

func buildPkg(t *testing.T, p Package) string {
	t.Helper()
	return writePkg(t, t.TempDir(), p)
}

// writePkg builds p into dir and returns its path.
func writePkg(t *testing.T, dir string, p Package) string {
	t.Helper()
	out := filepath.Join(dir, p.FileName())
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	signed, err := p.Build(f)
	if err != nil {
		t.Fatal(err)
	}
	if signed != (p.Signer != nil) {
		t.Fatalf("Build reports signed=%v with signer %v", signed, p.Signer != nil)
	}
	f.Close()
	return out
}

func testPackage(t *testing.T) Package {
	ctrld, wrapper := darwinSlices(t)
	return Package{Identifier: names.PkgIdentifier, Version: "1.2.3", Ctrld: ctrld, Wrapper: wrapper, CtrldName: "ctrld", MTime: epoch}
}

func openPkg(t *testing.T, path string) *xar.Reader {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	info, _ := f.Stat()
	r, err := xar.NewReader(f, info.Size())
	if err != nil {
		t.Fatal(err)
	}
	return r
}

type cpioEntry struct {
	h    cpio.Header
	data []byte
}

func readCpioGz(t *testing.T, data []byte) []cpioEntry {
	t.Helper()
	if !bytes.HasPrefix(data, []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0}) || data[9] != 3 {
		t.Fatalf("gzip header %x: want no flags, MTIME 0, OS 3", data[:10])
	}
	gz, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	r := cpio.NewReader(gz)
	var out []cpioEntry
	for {
		h, err := r.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(r)
		out = append(out, cpioEntry{*h, body})
	}
}

func TestPackageStructure(t *testing.T) {
	t.Parallel()
	p := testPackage(t)
	r := openPkg(t, sharedUnsignedPkg(t))
	var names []string
	for _, h := range r.Members() {
		names = append(names, h.Name)
	}
	if strings.Join(names, " ") != "ctrld.pkg ctrld.pkg/Bom ctrld.pkg/Payload ctrld.pkg/Scripts ctrld.pkg/PackageInfo Distribution" {
		t.Fatalf("members %v", names)
	}
	for _, h := range r.Members() {
		if (h.Name == "ctrld.pkg/Payload" || h.Name == "ctrld.pkg/Scripts") && h.Encoding != xar.EncodingNone {
			t.Errorf("%s must be stored, not compressed again", h.Name)
		}
	}

	payloadData, err := r.ReadFile("ctrld.pkg/Payload")
	if err != nil {
		t.Fatal(err)
	}
	payload := readCpioGz(t, payloadData)
	wantPaths := []string{".", "./Library", "./Library/ControlD", "./Library/ControlD/ctrld", "./Library/ControlD/ctrld-install"}
	var got []string
	for _, e := range payload {
		got = append(got, e.h.Name)
		if e.h.UID != 0 || e.h.GID != 0 || e.h.Mode&0o777 != 0o755 || e.h.ModTime != epoch.Unix() {
			t.Errorf("%s: owner %d:%d mode %o mtime %d", e.h.Name, e.h.UID, e.h.GID, e.h.Mode, e.h.ModTime)
		}
	}
	if strings.Join(got, " ") != strings.Join(wantPaths, " ") {
		t.Fatalf("payload paths %v", got)
	}
	// Both binaries are universal and hold exactly the input slices.
	for _, e := range payload[4:] {
		inputs := p.Ctrld
		if strings.HasSuffix(e.h.Name, "ctrld-install") {
			inputs = p.Wrapper
		}
		checkUniversal(t, e.data, inputs)
	}

	// The BOM lists exactly the payload's paths, with matching fields.
	bomData, _ := r.ReadFile("ctrld.pkg/Bom")
	b, err := bom.Read(bomData)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Paths) != len(payload) {
		t.Fatalf("BOM has %d paths, payload %d", len(b.Paths), len(payload))
	}
	byName := map[string]bom.Header{}
	for _, bp := range b.Paths {
		byName[bp.Name] = bp
	}
	for _, e := range payload {
		bp, ok := byName[e.h.Name]
		if !ok {
			t.Fatalf("%s missing from the BOM", e.h.Name)
		}
		if int64(bp.Mode) != e.h.Mode || int64(bp.UID) != e.h.UID || int64(bp.GID) != e.h.GID || int64(bp.ModTime) != e.h.ModTime {
			t.Errorf("%s: BOM %+v, payload %+v", e.h.Name, bp, e.h)
		}
		if e.h.IsRegular() && (int64(bp.Size) != e.h.Size || bp.Checksum != bom.Checksum(e.data)) {
			t.Errorf("%s: BOM size/cksum %d/%d disagree with the payload", e.h.Name, bp.Size, bp.Checksum)
		}
	}

	info := readPackageInfo(t, r)
	if info.Files != len(payload) || info.KBytes != installKBytes(toEntries(payload)) || info.KBytes < 1000 {
		t.Errorf("PackageInfo payload %+v", info)
	}
	if info.ID != "com.controld.ctrld" || info.Version != "1.2.3" || info.Location != "/" || info.Auth != "root" || info.Postinstall != "./postinstall" {
		t.Errorf("PackageInfo %+v", info)
	}
	dist, _ := r.ReadFile("Distribution")
	for _, want := range []string{`hostArchitectures="arm64,x86_64"`, `installKBytes="` + strconv.FormatInt(info.KBytes, 10) + `"`, `>#ctrld.pkg</pkg-ref>`, `<pkg-ref id="com.controld.ctrld" version="1.2.3"`} {
		if !strings.Contains(string(dist), want) {
			t.Errorf("Distribution lacks %s:\n%s", want, dist)
		}
	}
	var anyXML struct{}
	if err := xml.Unmarshal(dist, &anyXML); err != nil {
		t.Errorf("Distribution is not XML: %v", err)
	}

	scriptsData, _ := r.ReadFile("ctrld.pkg/Scripts")
	scripts := readCpioGz(t, scriptsData)
	if len(scripts) != 2 || scripts[1].h.Name != "./postinstall" || scripts[1].h.Mode != cpio.TypeRegular|0o755 || !bytes.Equal(scripts[1].data, postinstall) {
		t.Fatalf("Scripts %+v", scripts)
	}
}

func toEntries(c []cpioEntry) []entry {
	out := make([]entry, len(c))
	for i, e := range c {
		out[i] = entry{name: e.h.Name, mode: e.h.Mode, size: e.h.Size}
	}
	return out
}

func checkUniversal(t *testing.T, data []byte, inputs []string) {
	t.Helper()
	fat, err := macho.NewFatFile(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("not a universal binary: %v", err)
	}
	if len(fat.Arches) != len(inputs) {
		t.Fatalf("%d slices, want %d", len(fat.Arches), len(inputs))
	}
	for _, a := range fat.Arches {
		slice := data[a.Offset : a.Offset+a.Size]
		found := false
		for _, in := range inputs {
			want, _ := os.ReadFile(in)
			found = found || bytes.Equal(slice, want)
		}
		if !found {
			t.Errorf("slice for %v matches no input", a.Cpu)
		}
	}
}

type packageInfo struct {
	ID          string `xml:"identifier,attr"`
	Version     string `xml:"version,attr"`
	Location    string `xml:"install-location,attr"`
	Auth        string `xml:"auth,attr"`
	Format      string `xml:"format-version,attr"`
	Files       int
	KBytes      int64
	Postinstall string
}

func readPackageInfo(t *testing.T, r *xar.Reader) packageInfo {
	data, err := r.ReadFile("ctrld.pkg/PackageInfo")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		packageInfo
		Payload struct {
			Files  int   `xml:"numberOfFiles,attr"`
			KBytes int64 `xml:"installKBytes,attr"`
		} `xml:"payload"`
		Scripts struct {
			Post struct {
				File string `xml:"file,attr"`
			} `xml:"postinstall"`
		} `xml:"scripts"`
	}
	if err := xml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	info := doc.packageInfo
	info.Files, info.KBytes, info.Postinstall = doc.Payload.Files, doc.Payload.KBytes, doc.Scripts.Post.File
	if info.Format != "2" {
		t.Errorf("format-version %q", info.Format)
	}
	return info
}

func TestReproducible(t *testing.T) {
	t.Parallel()
	p := testPackage(t)
	a, _ := os.ReadFile(sharedUnsignedPkg(t))
	b, _ := os.ReadFile(buildPkg(t, p))
	if !bytes.Equal(a, b) {
		t.Fatal("two builds with the same inputs differ")
	}
	p.MTime = epoch.Add(time.Second)
	c, _ := os.ReadFile(buildPkg(t, p))
	if bytes.Equal(a, c) {
		t.Fatal("the build ignores its time")
	}
}

func TestThinBinaryStaysThin(t *testing.T) {
	t.Parallel()
	ctrld, wrapper := darwinSlices(t)
	p := Package{Identifier: names.PkgIdentifier, Version: "1.0.0", Ctrld: ctrld[1:], Wrapper: wrapper[1:], CtrldName: "ctrld", MTime: epoch}
	r := openPkg(t, buildPkg(t, p))
	dist, _ := r.ReadFile("Distribution")
	if !strings.Contains(string(dist), `hostArchitectures="arm64"`) {
		t.Fatalf("arm64-only package: %s", dist)
	}
}

func TestInstallKBytesRule(t *testing.T) {
	// The munki launchd component: files of these sizes and HFS+ directory
	// sizes 136, 170, 204 give installKBytes 9 (spec §5.5).
	tree := []entry{{name: ".", mode: dirMode, size: 102}}
	for _, s := range []int64{750, 1041, 990, 396, 709, 779, 773} {
		tree = append(tree, entry{mode: execMode, size: s})
	}
	for _, s := range []int64{136, 170, 204} {
		tree = append(tree, entry{mode: dirMode, size: s})
	}
	if got := installKBytes(tree); got != 9 {
		t.Fatalf("installKBytes %d, want 9", got)
	}
}

// The shipped postinstall runs the wrapper where the payload puts it.
func TestPostinstallRunsTheInstalledWrapper(t *testing.T) {
	want := "exec " + InstallDir + "/" + names.Wrapper + " start"
	if !strings.Contains(string(postinstall), want) {
		t.Fatalf("postinstall does not %q:\n%s", want, postinstall)
	}
}
