package release

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"debug/macho"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/installers/linux"
	"github.com/ctrld-install/ctrld-install/installers/macos/cpio"
	"github.com/ctrld-install/ctrld-install/installers/macos/xar"
	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

var epoch = time.Unix(1_700_000_000, 0).UTC()

func baseConfig(t *testing.T) Config {
	dir := t.TempDir()
	return Config{Out: filepath.Join(dir, "dist"), Work: filepath.Join(dir, "work"), Repo: testenv.RepoRoot(), MTime: epoch}
}

func TestVersionIsRequired(t *testing.T) {
	t.Parallel()
	cfg := baseConfig(t)
	cfg.Kinds = []string{"tar.gz"}
	if _, err := Dist(cfg); err == nil || !strings.Contains(err.Error(), "no version") {
		t.Fatalf("got %v", err)
	}
}

func TestUnknownKindIsRefused(t *testing.T) {
	t.Parallel()
	cfg := baseConfig(t)
	cfg.Version, cfg.Kinds = "1.0.0", []string{"dmg"}
	if _, err := Dist(cfg); err == nil || !strings.Contains(err.Error(), `unknown kind "dmg"`) {
		t.Fatalf("got %v", err)
	}
}

// Two builds from the same inputs give the same bytes, the second with
// only the Go toolchain on PATH: no artifact needs another tool. The first
// is the shared demo release, built in its own folders.
func TestDistIsReproducibleWithOnlyGo(t *testing.T) {
	t.Parallel()
	testenv.WholeRelease(t, "two dists compared byte for byte")
	goTool := testenv.RequireTool(t, "go")
	dir := t.TempDir()
	child := exec.Command(os.Args[0])
	child.Env = append(withoutPath(os.Environ()), "PATH="+filepath.Dir(goTool), onlyGoDistDir+"="+dir)
	if out, err := child.CombinedOutput(); err != nil {
		t.Fatalf("build with only go: %v\n%s", err, out)
	}
	first, err := readTree(sharedDemoDist(t).Out)
	if err != nil {
		t.Fatal(err)
	}
	second, err := readTree(filepath.Join(dir, "dist"))
	if err != nil {
		t.Fatal(err)
	}
	if err := compareTrees(first, second); err != nil {
		t.Fatal(err)
	}
}

// fakeReleaseArchives lays out archives as ctrld publishes them: one per
// platform, the binary at the root beside README.md and LICENSE, tar.gz
// for Linux and macOS, zip for Windows. Each binary is a real build for its
// platform (the demo ctrld the shared release staged), so the test can tell
// them apart.
func fakeReleaseArchives(t *testing.T, version string) (dir string, binaries map[Platform][]byte) {
	t.Helper()
	return fakeLineArchives(t, names.Ctrld, version)
}

// fakeLineArchives are the archives of the line whose binary is named
// line: the archives and the binary in each carry its name.
func fakeLineArchives(t *testing.T, line, version string) (dir string, binaries map[Platform][]byte) {
	t.Helper()
	dir = t.TempDir()
	demo := sharedDemoDist(t)
	binaries = map[Platform][]byte{}
	for _, p := range Platforms {
		data, err := os.ReadFile(filepath.Join(demo.binDir(p), exeName("ctrld", p.OS)))
		if err != nil {
			t.Fatal(err)
		}
		binaries[p] = data
		name := line + "_" + version + "_" + p.OS + "_" + p.Arch
		files := map[string][]byte{exeName(line, p.OS): data, "README.md": []byte("# ctrld\n"), "LICENSE": []byte("MIT\n")}
		if p.OS == "windows" {
			writeZip(t, filepath.Join(dir, name+".zip"), files)
		} else {
			writeTarGz(t, filepath.Join(dir, name+".tar.gz"), files)
		}
	}
	os.WriteFile(filepath.Join(dir, "checksums.txt"), []byte("ignored\n"), 0o644)
	return dir, binaries
}

func writeTarGz(t *testing.T, path string, files map[string][]byte) {
	f, _ := os.Create(path)
	defer f.Close()
	gz := gzip.NewWriter(f)
	tw := tar.NewWriter(gz)
	for name, data := range files {
		tw.WriteHeader(&tar.Header{Name: name, Mode: 0o755, Size: int64(len(data)), Typeflag: tar.TypeReg})
		tw.Write(data)
	}
	tw.Close()
	gz.Close()
}

func writeZip(t *testing.T, path string, files map[string][]byte) {
	f, _ := os.Create(path)
	defer f.Close()
	zw := zip.NewWriter(f)
	for name, data := range files {
		w, _ := zw.Create(name)
		w.Write(data)
	}
	zw.Close()
}

func TestDistFromReleaseArchives(t *testing.T) {
	t.Parallel()
	testenv.WholeRelease(t, "a dist from ctrld's release archives")
	msiextract := testenv.RequireTool(t, "msiextract")
	dpkgDeb := testenv.RequireTool(t, "dpkg-deb")
	bsdtar := testenv.RequireTool(t, "bsdtar")
	archives, binaries := fakeReleaseArchives(t, "1.4.0")
	cfg := baseConfig(t)
	cfg.ArchiveDir = archives
	var progress bytes.Buffer
	cfg.Progress = &progress
	arts, err := Dist(cfg)
	if err != nil {
		t.Fatal(err)
	}
	// pkg, 3 msis, 5 debs (no armv6), 6 rpms, 6 tarballs, return codes,
	// and the standalone ctrld-install: 3 for Windows, 1 for macOS, 6 for Linux.
	if len(arts) != 32 || strings.Contains(progress.String(), "DEMO") {
		t.Fatalf("%d artifacts; progress:\n%s", len(arts), progress.String())
	}
	var manifest Manifest
	data, _ := os.ReadFile(filepath.Join(cfg.Out, "manifest.json"))
	if err := json.Unmarshal(data, &manifest); err != nil || manifest.Version != "1.4.0" || manifest.Demo {
		t.Fatalf("manifest %+v (%v)", manifest, err)
	}
	sums, _ := os.ReadFile(filepath.Join(cfg.Out, "SHA256SUMS"))
	for _, a := range manifest.Artifacts {
		if strings.Contains(a.Name, "DEMO") || !strings.Contains(string(sums), a.SHA256+"  "+a.Name+"\n") {
			t.Errorf("%s: demo-named or not in SHA256SUMS", a.Name)
		}
		if a.Kind != "msi" && a.Kind != "intune-return-codes" && !strings.Contains(a.Name, "1.4.0") {
			t.Errorf("%s does not carry the version", a.Name)
		}
	}
	find := func(kind, arch string) string {
		for _, a := range manifest.Artifacts {
			if a.Kind == kind && (arch == "" || a.Arch == arch) {
				return filepath.Join(cfg.Out, a.Name)
			}
		}
		t.Fatalf("no %s %s artifact", kind, arch)
		return ""
	}

	// macOS: the pkg's payload holds a universal ctrld of both Mac builds.
	checkPkg(t, find("pkg", ""), binaries[Platform{"darwin", "amd64"}], binaries[Platform{"darwin", "arm64"}])

	// Windows: msiextract finds each MSI's own ctrld.exe.
	for _, arch := range MsiArches {
		out := t.TempDir()
		if msg, err := exec.Command(msiextract, "-C", out, find("msi", arch)).CombinedOutput(); err != nil {
			t.Fatalf("msiextract: %v\n%s", err, msg)
		}
		checkFileUnder(t, out, "ctrld.exe", binaries[Platform{"windows", arch}])
	}

	// Linux: dpkg-deb, bsdtar on the rpm, and the tar.gz.
	for _, arch := range LinuxArches {
		want := binaries[Platform{"linux", arch}]
		if linux.ArchName(linux.Deb, arch) != "" {
			debDir := t.TempDir()
			if msg, err := exec.Command(dpkgDeb, "-x", find("deb", arch), debDir).CombinedOutput(); err != nil {
				t.Fatalf("dpkg-deb: %v\n%s", err, msg)
			}
			checkFileUnder(t, debDir, "ctrld", want)
		}
		rpmDir := t.TempDir()
		if msg, err := exec.Command(bsdtar, "-xf", find("rpm", arch), "-C", rpmDir).CombinedOutput(); err != nil {
			t.Fatalf("bsdtar rpm: %v\n%s", err, msg)
		}
		checkFileUnder(t, rpmDir, "ctrld", want)
		tgzDir := t.TempDir()
		if msg, err := exec.Command(bsdtar, "-xf", find("tar.gz", arch), "-C", tgzDir).CombinedOutput(); err != nil {
			t.Fatalf("bsdtar tar.gz: %v\n%s", err, msg)
		}
		checkFileUnder(t, tgzDir, "ctrld", want)
	}
}

func checkFileUnder(t *testing.T, root, name string, want []byte) {
	t.Helper()
	found := false
	filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err == nil && info.Name() == name && info.Mode().IsRegular() {
			got, _ := os.ReadFile(p)
			found = found || bytes.Equal(got, want)
		}
		return nil
	})
	if !found {
		t.Errorf("no %s with the input's bytes under %s", name, root)
	}
}

func checkPkg(t *testing.T, pkg string, slices ...[]byte) {
	t.Helper()
	checkPkgCtrld(t, pkg, names.Ctrld, slices...)
}

// checkPkgCtrld checks that the pkg's payload holds ctrld under the
// line's name, universal, made of the slices.
func checkPkgCtrld(t *testing.T, pkg, line string, slices ...[]byte) {
	t.Helper()
	data, err := os.ReadFile(pkg)
	if err != nil {
		t.Fatal(err)
	}
	cr := pkgPayloadReader(t, data)
	for {
		h, err := cr.Next()
		if err != nil {
			t.Fatalf("no ctrld in the payload: %v", err)
		}
		if h.Name != "./Library/ControlD/"+line {
			continue
		}
		data, _ := io.ReadAll(cr)
		fat, err := macho.NewFatFile(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("ctrld is not universal: %v", err)
		}
		for _, a := range fat.Arches {
			slice := data[a.Offset : a.Offset+a.Size]
			if !bytes.Equal(slice, slices[0]) && !bytes.Equal(slice, slices[1]) {
				t.Errorf("slice %v is not an input binary", a.Cpu)
			}
		}
		return
	}
}

func withoutPath(env []string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, "PATH=") {
			out = append(out, kv)
		}
	}
	return out
}

// pkgPayloadReader reads the payload of the pkg whose bytes are data with
// the project's readers: xar, gzip, cpio.
func pkgPayloadReader(t *testing.T, data []byte) *cpio.Reader {
	t.Helper()
	r, err := xar.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	payload, err := r.Open("ctrld.pkg/Payload")
	if err != nil {
		t.Fatal(err)
	}
	gz, err := gzip.NewReader(payload)
	if err != nil {
		t.Fatal(err)
	}
	return cpio.NewReader(gz)
}
