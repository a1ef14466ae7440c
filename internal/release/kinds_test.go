package release

import (
	"debug/buildinfo"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/installers/linux"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// fakeCtrldDir lays out CTRLD_DIR with a stand-in ctrld for each platform.
// deb, rpm and tar.gz do not run what they package.
func fakeCtrldDir(t *testing.T, platforms ...Platform) string {
	t.Helper()
	dir := t.TempDir()
	for _, p := range platforms {
		os.MkdirAll(filepath.Join(dir, p.String()), 0o755)
		os.WriteFile(filepath.Join(dir, p.String(), exeName("ctrld", p.OS)), []byte("ctrld for "+p.String()), 0o755)
	}
	return dir
}

func without(ps []Platform, drop Platform) []Platform {
	var out []Platform
	for _, p := range ps {
		if p != drop {
			out = append(out, p)
		}
	}
	return out
}

func TestEachKindNeedsOnlyItsPlatforms(t *testing.T) {
	t.Parallel()
	deb := linuxPlatformsFor(linux.Deb)
	cfg := baseConfig(t)
	cfg.Version, cfg.Kinds = "1.0.0", []string{"deb"}
	cfg.CtrldDir = fakeCtrldDir(t, without(deb, Platform{"linux", "armv5"})...)
	_, err := Dist(cfg)
	if err == nil || !strings.Contains(err.Error(), "linux-armv5") || !strings.Contains(err.Error(), "deb needs") {
		t.Fatalf("missing armv5 not named: %v", err)
	}
	for _, other := range []string{"darwin", "windows", "linux-armv6", "linux-amd64"} {
		if strings.Contains(err.Error(), other) {
			t.Errorf("deb asked for %s: %v", other, err)
		}
	}
}

// A kind's release builds and stages its platforms and no other.
func TestAKindBuildsOnlyItsPlatforms(t *testing.T) {
	t.Parallel()
	testenv.WholeRelease(t, "a release of every deb")
	deb := linuxPlatformsFor(linux.Deb)
	cfg := baseConfig(t)
	cfg.Version, cfg.Kinds = "1.0.0", []string{"deb"}
	cfg.CtrldDir = fakeCtrldDir(t, deb...)
	arts, err := Dist(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(arts) != len(deb) {
		t.Fatalf("%d artifacts for %d deb platforms", len(arts), len(deb))
	}
	staged, _ := os.ReadDir(filepath.Join(cfg.Work, "bin"))
	if len(staged) != len(deb) {
		t.Errorf("staged %d platforms for deb, want %d", len(staged), len(deb))
	}
}

func TestMissingArchivesAreNamedAtOnce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeTarGz(t, filepath.Join(dir, "ctrld_1.4.0_linux_armv7.tar.gz"), map[string][]byte{"ctrld": []byte("x")})
	cfg := baseConfig(t)
	cfg.ArchiveDir, cfg.Kinds = dir, []string{"tar.gz"}
	_, err := Dist(cfg)
	if err == nil {
		t.Fatal("built tarballs without their archives")
	}
	for _, want := range []string{"ctrld_<version>_linux_386.tar.gz", "ctrld_<version>_linux_armv5.tar.gz", "ctrld_<version>_linux_armv6.tar.gz", "tar.gz needs"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
	if strings.Contains(err.Error(), "armv7") || strings.Contains(err.Error(), "darwin") {
		t.Errorf("error names what is there or not needed: %v", err)
	}
}

// Every package's architecture, read back with the format's own tool, and
// every binary inside built for that platform; read from the shared demo
// release.
func TestEveryLinuxPackageCarriesItsArchitecture(t *testing.T) {
	t.Parallel()
	dpkgDeb := testenv.RequireTool(t, "dpkg-deb")
	rpm := testenv.RequireTool(t, "rpm")
	cfg := sharedDemoDist(t)
	var manifest Manifest
	data, _ := os.ReadFile(filepath.Join(cfg.Out, "manifest.json"))
	if err := json.Unmarshal(data, &manifest); err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, a := range manifest.Artifacts {
		path := filepath.Join(cfg.Out, a.Name)
		seen[a.Kind]++
		switch a.Kind {
		case "deb":
			out, err := exec.Command(dpkgDeb, "-f", path, "Architecture").Output()
			if want := linux.Arches[a.Arch].Deb; err != nil || strings.TrimSpace(string(out)) != want {
				t.Errorf("%s: Architecture %q, want %q (%v)", a.Name, out, want, err)
			}
		case "rpm":
			out, err := exec.Command(rpm, "-qp", "--qf", "%{ARCH}", path).Output()
			if want := linux.Arches[a.Arch].RPM; err != nil || string(out) != want {
				t.Errorf("%s: ARCH %q, want %q (%v)", a.Name, out, want, err)
			}
		case "tar.gz":
			dir := t.TempDir()
			extract(t, path, dir)
			root := filepath.Join(dir, "ctrld_"+cfg.Version+"_linux_"+a.Arch)
			for _, bin := range []string{"ctrld", "ctrld-install"} {
				checkBuiltFor(t, filepath.Join(root, bin), Platform{"linux", a.Arch})
			}
		}
	}
	if seen["deb"] != 5 || seen["rpm"] != 6 || seen["tar.gz"] != 6 {
		t.Errorf("artifacts per kind: %v", seen)
	}
}

func extract(t *testing.T, archive, dir string) {
	t.Helper()
	if out, err := exec.Command("tar", "-xzf", archive, "-C", dir).CombinedOutput(); err != nil {
		t.Fatalf("tar: %v\n%s", err, out)
	}
}

// checkBuiltFor reads the Go build settings recorded in a binary.
func checkBuiltFor(t *testing.T, path string, p Platform) {
	t.Helper()
	info, err := buildinfo.ReadFile(path)
	if err != nil {
		t.Errorf("%s: %v", path, err)
		return
	}
	got := map[string]string{}
	for _, s := range info.Settings {
		got[s.Key] = s.Value
	}
	if got["GOOS"] != p.OS || got["GOARCH"] != p.GOARCH() || (p.GOARM() != "" && got["GOARM"] != p.GOARM()) {
		t.Errorf("%s built for %s/%s GOARM=%s, want %s", path, got["GOOS"], got["GOARCH"], got["GOARM"], p)
	}
}

// Stage builds both programs for every platform ctrld ships, Windows x86
// and arm64 included, though only x64 has an MSI yet.
func TestStageBuildsEveryPlatform(t *testing.T) {
	t.Parallel()
	testenv.WholeRelease(t, "stages every platform again")
	cfg := baseConfig(t)
	cfg.Version = "1.0.0"
	if err := Stage(cfg); err != nil {
		t.Fatal(err)
	}
	checkStaged(t, cfg)
}

// A release of every kind stages every platform, as Stage does.
func TestDistStagesEveryPlatform(t *testing.T) {
	t.Parallel()
	if got := platformsOfKinds(Kinds); !slices.Equal(got, Platforms) {
		t.Fatalf("the kinds package %v, not every platform %v", got, Platforms)
	}
	checkStaged(t, sharedDemoDist(t).Config)
}

func checkStaged(t *testing.T, cfg Config) {
	t.Helper()
	for _, p := range Platforms {
		checkBuiltFor(t, cfg.WrapperPath(p), p)
		checkBuiltFor(t, filepath.Join(cfg.binDir(p), exeName("ctrld", p.OS)), p)
	}
}

// The shared demo release builds every kind unsigned, its jobs printing
// through one progress writer.
func TestUnsignedKindsSayHowToSign(t *testing.T) {
	t.Parallel()
	progress := sharedDemoDist(t).progress
	for _, kind := range []string{"deb", "rpm"} {
		if n := strings.Count(progress, kind+": unsigned (to sign: CTRLD_PACKAGE_SIGNING_KEY)\n"); n != 1 {
			t.Errorf("%s: %d unsigned lines\n%s", kind, n, progress)
		}
	}
	if n := strings.Count(progress, "pkg: Mach-O files not code-signed (to sign: CTRLD_SIGN_MACHO_CERT and CTRLD_SIGN_MACHO_KEY, or CTRLD_SIGN_MACHO_PFX)\n"); n != 1 {
		t.Errorf("pkg: %d not-code-signed lines\n%s", n, progress)
	}
	if strings.Contains(progress, "tar.gz: unsigned") {
		t.Error("tar.gz has no signature to speak of")
	}
}

func TestKindsTable(t *testing.T) {
	for _, k := range Kinds {
		if k.New == nil || k.OS == "" {
			t.Errorf("%s: incomplete", k.Name)
		}
		if (k.SignedBy == nil) != (k.HowToSign == "") {
			t.Errorf("%s: a signer needs its how-to line and the other way round", k.Name)
		}
		for _, p := range k.Platforms {
			if p.OS != k.OS {
				t.Errorf("%s packages %s", k.Name, p)
			}
		}
	}
	if len(MsiArches) == 0 || MsiArches[0] != "amd64" {
		t.Errorf("MsiArches %v", MsiArches)
	}
}
