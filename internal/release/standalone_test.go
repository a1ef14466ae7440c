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
	"slices"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/installers/signing"
	"github.com/ctrld-install/ctrld-install/installers/signing/signingtest"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

var standaloneKinds = []string{standaloneWindows, standaloneDarwin, standaloneLinux}

// archived is the one file a standalone archive holds.
type archived struct {
	name string
	mode os.FileMode
	data []byte
}

// The admin's ctrld-install ships alone for every OS and architecture: a
// zip of each Windows architecture's signed ctrld-install.exe, a zip of
// the universal Mac binary, a tar.gz of each Linux one; each holds the
// staged file and nothing else, is listed in SHA256SUMS and the manifest,
// and two builds are byte-identical.
func TestStandaloneCtrldInstall(t *testing.T) {
	t.Parallel()
	testenv.WholeRelease(t, "two builds of the standalone ctrld-install")
	osslsigncode := testenv.RequireTool(t, "osslsigncode")
	bsdtar := testenv.RequireTool(t, "bsdtar")
	win := signingtest.NewPKI(t).Leaf(t, signingtest.Windows())
	winFiles := win.Write(t, t.TempDir())
	ids, err := signing.FromEnv(func(k string) string {
		return map[string]string{signing.EnvWindowsCert: winFiles.Cert, signing.EnvWindowsKey: winFiles.Key}[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	var platforms []Platform
	for _, k := range standaloneKinds {
		kind, _ := KindNamed(k)
		platforms = append(platforms, kind.Platforms...)
	}
	ctrldDir := fakeCtrldDir(t, platforms...)

	var trees [2]map[string][]byte
	var cfg Config
	var arts []Artifact
	for i := range trees {
		cfg = baseConfig(t)
		cfg.Version, cfg.Kinds, cfg.CtrldDir = "1.2.3", standaloneKinds, ctrldDir
		cfg.Signing = Signing{Windows: ids.Windows}
		if arts, err = Dist(cfg); err != nil {
			t.Fatalf("dist %d: %v", i, err)
		}
		if trees[i], err = readTree(cfg.Out); err != nil {
			t.Fatal(err)
		}
	}
	if err := compareTrees(trees[0], trees[1]); err != nil {
		t.Error(err)
	}

	want := map[string]Platform{}
	for _, p := range platforms {
		switch p.OS {
		case "windows":
			want["ctrld-install_1.2.3_windows_"+p.Arch+".zip"] = p
		case "linux":
			want["ctrld-install_1.2.3_linux_"+p.Arch+".tar.gz"] = p
		}
	}
	want["ctrld-install_1.2.3_darwin_universal.zip"] = Platform{"darwin", "universal"}
	if len(arts) != len(want) {
		t.Fatalf("%d artifacts, want %d", len(arts), len(want))
	}
	checkListed(t, cfg.Out, arts)
	for _, a := range arts {
		p, ok := want[a.Name]
		if !ok {
			t.Errorf("unexpected artifact %s", a.Name)
			continue
		}
		path := filepath.Join(cfg.Out, a.Name)
		if a.Signed != (p.OS == "windows") || a.OS != p.OS || a.Arch != p.Arch {
			t.Errorf("%s: manifest says os %s arch %s signed %v", a.Name, a.OS, a.Arch, a.Signed)
		}
		if out, err := exec.Command(bsdtar, "-tvf", path).CombinedOutput(); err != nil || !strings.Contains(string(out), exeName("ctrld-install", p.OS)) {
			t.Errorf("bsdtar -tvf %s: %v\n%s", a.Name, err, out)
		}
		file := readOnlyMember(t, path)
		if file.name != exeName("ctrld-install", p.OS) || file.mode.Perm() != executableMode {
			t.Errorf("%s holds %s, mode %v", a.Name, file.name, file.mode)
		}
		switch p.OS {
		case "darwin":
			checkUniversal(t, a.Name, file.data)
		case "windows":
			checkSameAsStaged(t, a.Name, file.data, cfg.WrapperPath(p))
			exe := filepath.Join(t.TempDir(), file.name)
			os.WriteFile(exe, file.data, 0o644)
			if out, err := exec.Command(osslsigncode, "verify", "-in", exe, "-CAfile", winFiles.CA).CombinedOutput(); err != nil || !strings.Contains(string(out), "Succeeded") {
				t.Errorf("osslsigncode verify %s from %s: %v\n%s", file.name, a.Name, err, out)
			}
		default:
			checkSameAsStaged(t, a.Name, file.data, cfg.WrapperPath(p))
		}
	}
}

// checkListed: every artifact is in SHA256SUMS and manifest.json with
// its own file's hash.
func checkListed(t *testing.T, dist string, arts []Artifact) {
	t.Helper()
	sums, _ := os.ReadFile(filepath.Join(dist, "SHA256SUMS"))
	var m Manifest
	data, _ := os.ReadFile(filepath.Join(dist, "manifest.json"))
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	for _, a := range arts {
		sum, _, err := hashFile(filepath.Join(dist, a.Name))
		if err != nil || sum != a.SHA256 {
			t.Errorf("%s: hash %s, artifact says %s (%v)", a.Name, sum, a.SHA256, err)
		}
		if !strings.Contains(string(sums), sum+"  "+a.Name+"\n") {
			t.Errorf("%s not in SHA256SUMS", a.Name)
		}
		if !slices.ContainsFunc(m.Artifacts, func(b Artifact) bool { return b.Name == a.Name && b.SHA256 == sum && b.Kind == a.Kind }) {
			t.Errorf("%s not in manifest.json", a.Name)
		}
	}
}

func readOnlyMember(t *testing.T, path string) archived {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var files []archived
	if strings.HasSuffix(path, ".zip") {
		files = zipMembers(t, data)
	} else {
		files = tarGzMembers(t, data)
	}
	if len(files) != 1 {
		t.Fatalf("%s holds %d files, want 1", filepath.Base(path), len(files))
	}
	return files[0]
}

func zipMembers(t *testing.T, data []byte) []archived {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var out []archived
	for _, f := range zr.File {
		if !f.Modified.Equal(epoch) {
			t.Errorf("%s: modified %v, want %v", f.Name, f.Modified, epoch)
		}
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, archived{f.Name, f.Mode(), body})
	}
	return out
}

func tarGzMembers(t *testing.T, data []byte) []archived {
	t.Helper()
	gz, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	var out []archived
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		if !h.ModTime.Equal(epoch) || h.Uid != 0 || h.Gid != 0 {
			t.Errorf("%s: time %v, owner %d:%d", h.Name, h.ModTime, h.Uid, h.Gid)
		}
		body, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, archived{h.Name, h.FileInfo().Mode(), body})
	}
}

func checkSameAsStaged(t *testing.T, name string, data []byte, staged string) {
	t.Helper()
	want, err := os.ReadFile(staged)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(data, want) {
		t.Errorf("%s does not hold the staged %s", name, staged)
	}
}

// checkUniversal: the Mac binary is one universal file of both slices.
func checkUniversal(t *testing.T, name string, data []byte) {
	t.Helper()
	fat, err := macho.NewFatFile(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: not a universal Mach-O: %v", name, err)
	}
	var cpus []macho.Cpu
	for _, a := range fat.Arches {
		cpus = append(cpus, a.Cpu)
	}
	if len(cpus) != 2 || !slices.Contains(cpus, macho.CpuAmd64) || !slices.Contains(cpus, macho.CpuArm64) {
		t.Errorf("%s: slices %v, want amd64 and arm64", name, cpus)
	}
}
