//go:build mage

// Build, test and release targets for ctrld-install. Run `go run mage.go -l`
// to list them.
package main

import (
	"crypto/sha256"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/magefile/mage/mg"
	"github.com/magefile/mage/sh"

	"github.com/ctrld-install/ctrld-install/installers/linux"
	"github.com/ctrld-install/ctrld-install/installers/macos"
	"github.com/ctrld-install/ctrld-install/installers/windows"
)

// platforms the wrapper ships for.
var platforms = []struct{ OS, Arch string }{
	{"darwin", "amd64"}, {"darwin", "arm64"},
	{"linux", "amd64"}, {"linux", "arm64"},
	{"windows", "amd64"}, {"windows", "arm64"},
}

const distDir = "dist"

// Build cross-compiles ctrld-install for macOS, Windows and Linux (amd64, arm64) into dist/.
func Build() error {
	version, err := releaseVersion()
	if err != nil {
		return err
	}
	for _, p := range platforms {
		out := wrapperPath(p.OS, p.Arch)
		env := map[string]string{"GOOS": p.OS, "GOARCH": p.Arch, "CGO_ENABLED": "0"}
		ldflags := "-s -w -buildid= -X github.com/ctrld-install/ctrld-install/wrapper/internal/cli.Version=" + version
		if err := sh.RunWith(env, "go", "build", "-trimpath", "-ldflags", ldflags, "-o", out, "./wrapper"); err != nil {
			return err
		}
		fmt.Println("built", out)
	}
	return nil
}

// wrapperPath is where Build puts one platform's ctrld-install.
func wrapperPath(goos, goarch string) string {
	return filepath.Join(distDir, "bin", goos+"-"+goarch, exeName("ctrld-install", goos))
}

// Test runs every test tier: vet and cross-builds for all three OSes, unit tests, CLI scenarios, short fuzzing and end-to-end installs.
func Test() {
	mg.SerialDeps(Vet, Build, UnitAndScenarios, Fuzz)
}

// Vet runs go vet for Linux, Windows and macOS.
func Vet() error {
	for _, goos := range []string{"linux", "windows", "darwin"} {
		if err := sh.RunWith(map[string]string{"GOOS": goos}, "go", "vet", "./..."); err != nil {
			return fmt.Errorf("go vet for %s: %w", goos, err)
		}
	}
	return nil
}

// UnitAndScenarios runs go test over the whole module: unit tests, CLI scenarios and end-to-end tests.
func UnitAndScenarios() error {
	return sh.RunV("go", "test", "-count=1", "-timeout", "30m", "./...")
}

// fuzzTargets are run briefly on every test run; longer runs are for
// `go test -fuzz` by hand.
var fuzzTargets = []struct{ Pkg, Name string }{
	{"./wrapper/internal/scan", "FuzzScanner"},
	{"./wrapper/settings", "FuzzParsePlist"},
	{"./installers/macos/xar", "FuzzReader"},
	{"./installers/macos/cpio", "FuzzReader"},
	{"./installers/macos/bom", "FuzzRead"},
}

// Fuzz runs each fuzz target for a short while (FUZZTIME, default 5s).
func Fuzz() error {
	fuzztime := envOr("FUZZTIME", "5s")
	for _, f := range fuzzTargets {
		if err := sh.RunV("go", "test", "-run", "^$", "-fuzz", "^"+f.Name+"$", "-fuzztime", fuzztime, f.Pkg); err != nil {
			return err
		}
	}
	return nil
}

// Bench runs the benchmarks and prints their figures.
func Bench() error {
	return sh.RunV("go", "test", "-run", "^$", "-bench", ".", "-benchmem", "-benchtime", envOr("BENCHTIME", "10x"), "./...")
}

// Dist builds every installer for every platform into dist/, with SHA256SUMS (the demo ctrld when CTRLD_DIR is not set).
func Dist() error {
	if isDemo() {
		fmt.Println("DEMO BUILD: no CTRLD_DIR given, packaging the demo ctrld from testdata/fakectrld")
	}
	mg.Deps(Pkg, Msi, Deb, Rpm, Tarball, IntuneCodes)
	if err := writeChecksums(distDir); err != nil {
		return err
	}
	if isDemo() {
		fmt.Println("DEMO BUILD: these artifacts carry the demo ctrld, not a real one")
	}
	return nil
}

// Binaries builds ctrld-install and stages ctrld beside it for every platform.
func Binaries() error {
	mg.Deps(Build)
	for _, p := range platforms {
		if err := stageCtrld(p.OS, p.Arch); err != nil {
			return err
		}
	}
	return nil
}

func isDemo() bool { return os.Getenv("CTRLD_DIR") == "" }

// ctrldPath is where Binaries puts one platform's ctrld.
func ctrldPath(goos, goarch string) string {
	return filepath.Join(filepath.Dir(wrapperPath(goos, goarch)), exeName("ctrld", goos))
}

// stageCtrld puts ctrld beside ctrld-install: the real one from
// CTRLD_DIR/<os>-<arch>/, or the demo built from testdata.
func stageCtrld(goos, goarch string) error {
	out := ctrldPath(goos, goarch)
	if isDemo() {
		env := map[string]string{"GOOS": goos, "GOARCH": goarch, "CGO_ENABLED": "0"}
		return sh.RunWith(env, "go", "build", "-trimpath", "-ldflags", "-s -w -buildid=", "-o", out, "./testdata/fakectrld")
	}
	src := filepath.Join(os.Getenv("CTRLD_DIR"), goos+"-"+goarch, exeName("ctrld", goos))
	if err := sh.Copy(out, src); err != nil {
		return fmt.Errorf("ctrld for %s-%s: %w", goos, goarch, err)
	}
	return nil
}

// Pkg builds the macOS product archive with universal ctrld and ctrld-install into dist/; signed with productsign on macOS when CTRLD_PKG_SIGN_IDENTITY is set.
func Pkg() error {
	mg.Deps(Binaries)
	version, err := releaseVersion()
	if err != nil {
		return err
	}
	mtime, err := sourceDateEpoch()
	if err != nil {
		return err
	}
	p := macos.Package{
		Identifier: "com.controld.ctrld", Version: version, MTime: mtime, CtrldName: "ctrld",
		Ctrld:   []string{ctrldPath("darwin", "amd64"), ctrldPath("darwin", "arm64")},
		Wrapper: []string{wrapperPath("darwin", "amd64"), wrapperPath("darwin", "arm64")},
	}
	name := demoName(p.FileName())
	if err := writeArtifact(name, p.Build); err != nil {
		return err
	}
	return signPkg(filepath.Join(distDir, name))
}

// signPkg signs with productsign where it exists (macOS) and an identity
// is configured; elsewhere it says, in one line, that the pkg is unsigned.
func signPkg(path string) error {
	identity := os.Getenv("CTRLD_PKG_SIGN_IDENTITY")
	if runtime.GOOS != "darwin" || identity == "" {
		fmt.Printf("%s: unsigned (signing needs macOS with productsign and CTRLD_PKG_SIGN_IDENTITY)\n", filepath.Base(path))
		return nil
	}
	signed := path + ".signed"
	if err := sh.RunV("productsign", "--sign", identity, path, signed); err != nil {
		return err
	}
	return os.Rename(signed, path)
}

// Msi builds the Windows x64 MSI with wixl into dist/ (wixl cannot build arm64); signed with osslsigncode when CTRLD_MSI_SIGN_CERT and CTRLD_MSI_SIGN_KEY are set.
func Msi() error {
	mg.Deps(Binaries)
	version, err := releaseVersion()
	if err != nil {
		return err
	}
	mtime, err := sourceDateEpoch()
	if err != nil {
		return err
	}
	p := windows.Package{
		Version: msiVersion(version), Arch: "x64", MTime: mtime,
		Ctrld: ctrldPath("windows", "amd64"), Wrapper: wrapperPath("windows", "amd64"),
		Cert: os.Getenv("CTRLD_MSI_SIGN_CERT"), Key: os.Getenv("CTRLD_MSI_SIGN_KEY"),
	}
	name := demoName(p.FileName())
	err = writeArtifact(name, func(w io.Writer) error {
		tmp := filepath.Join(distDir, "."+name+".tmp")
		defer os.Remove(tmp)
		if err := p.Build(tmp); err != nil {
			return err
		}
		f, err := os.Open(tmp)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = io.Copy(w, f)
		return err
	})
	if err == nil {
		fmt.Println("msi: arm64 not built: wixl 0.101 builds x64 packages only")
	}
	return err
}

// msiVersion keeps the numeric x.y.z that Windows Installer compares.
func msiVersion(v string) string {
	core := strings.FieldsFunc(v, func(r rune) bool { return r == '+' || r == '-' || r == '~' })[0]
	return core
}

// IntuneCodes writes dist/intune-return-codes.json (Graph win32LobAppReturnCode entries) from the code table.
func IntuneCodes() error {
	if err := os.MkdirAll(distDir, 0o755); err != nil {
		return err
	}
	return writeArtifact("intune-return-codes.json", windows.WriteReturnCodes)
}

// WineStub rebuilds installers/windows/winestub/bcryptprimitives.dll (tests under Wine only) with mingw-w64.
func WineStub() error {
	dir := filepath.Join("installers", "windows", "winestub")
	return sh.RunV("x86_64-w64-mingw32-gcc", "-shared", "-O2", "-s", "-Wl,--no-insert-timestamp",
		"-o", filepath.Join(dir, "bcryptprimitives.dll"),
		filepath.Join(dir, "bcryptprimitives.c"), filepath.Join(dir, "bcryptprimitives.def"), "-ladvapi32")
}

// Deb builds the Debian packages (amd64, arm64) into dist/.
func Deb() error { return linuxPackages("deb") }

// Rpm builds the RPM packages (amd64, arm64) into dist/.
func Rpm() error { return linuxPackages("rpm") }

// Tarball builds the tar.gz archives with install.sh (amd64, arm64) into dist/.
func Tarball() error { return linuxPackages("tar.gz") }

func linuxPackages(format string) error {
	mg.Deps(Binaries)
	version, err := releaseVersion()
	if err != nil {
		return err
	}
	mtime, err := sourceDateEpoch()
	if err != nil {
		return err
	}
	for _, arch := range []string{"amd64", "arm64"} {
		p := linux.Package{
			Name: "ctrld", Version: version, Arch: arch, MTime: mtime,
			Ctrld: ctrldPath("linux", arch), Wrapper: wrapperPath("linux", arch),
			SigningKey: os.Getenv("CTRLD_PACKAGE_SIGNING_KEY"),
		}
		name := p.TarballName()
		if format != "tar.gz" {
			if name, err = p.FileName(format); err != nil {
				return err
			}
		}
		err := writeArtifact(demoName(name), func(w io.Writer) error {
			if format == "tar.gz" {
				return p.BuildTarball(w)
			}
			return p.Build(format, w)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// demoName marks an artifact built around the demo ctrld.
func demoName(name string) string {
	if !isDemo() {
		return name
	}
	for _, ext := range []string{".tar.gz", ".deb", ".rpm", ".pkg", ".msi"} {
		if base, ok := strings.CutSuffix(name, ext); ok {
			return base + "-DEMO" + ext
		}
	}
	return name + "-DEMO"
}

// writeArtifact builds one file in dist/ and prints its name, size and
// build time.
func writeArtifact(name string, build func(io.Writer) error) error {
	start := time.Now()
	path := filepath.Join(distDir, name)
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := build(f); err != nil {
		f.Close()
		os.Remove(path)
		return fmt.Errorf("%s: %w", name, err)
	}
	if err := f.Close(); err != nil {
		return err
	}
	info, _ := os.Stat(path)
	fmt.Printf("%-44s %9.1f KiB %6.2fs\n", name, float64(info.Size())/1024, time.Since(start).Seconds())
	return nil
}

// sourceDateEpoch is SOURCE_DATE_EPOCH, else the last commit's time, so
// that the same inputs give the same bytes.
func sourceDateEpoch() (time.Time, error) {
	v := os.Getenv("SOURCE_DATE_EPOCH")
	if v == "" {
		out, err := exec.Command("git", "log", "-1", "--format=%ct").Output()
		if err != nil {
			return time.Time{}, fmt.Errorf("set SOURCE_DATE_EPOCH or build from a git checkout")
		}
		v = strings.TrimSpace(string(out))
	}
	secs, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("SOURCE_DATE_EPOCH %q is not a number of seconds", v)
	}
	return time.Unix(secs, 0).UTC(), nil
}

func exeName(name, goos string) string {
	if goos == "windows" {
		return name + ".exe"
	}
	return name
}

// writeChecksums writes SHA256SUMS for every file under dir, sorted.
func writeChecksums(dir string) error {
	var lines []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == "SHA256SUMS" {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		lines = append(lines, fmt.Sprintf("%x  %s", sha256.Sum256(data), filepath.ToSlash(rel)))
		return nil
	})
	if err != nil {
		return err
	}
	sort.Strings(lines)
	return os.WriteFile(filepath.Join(dir, "SHA256SUMS"), []byte(strings.Join(lines, "\n")+"\n"), 0o644)
}

// Clean removes dist/.
func Clean() error { return os.RemoveAll(distDir) }

// releaseVersion is VERSION if set, else git describe, else an error.
func releaseVersion() (string, error) {
	if v := os.Getenv("VERSION"); v != "" {
		return v, nil
	}
	if out, err := exec.Command("git", "describe", "--tags").Output(); err == nil {
		return strings.TrimPrefix(strings.TrimSpace(string(out)), "v"), nil
	}
	// No tag yet: a pre-release version named after the commit.
	out, err := exec.Command("git", "rev-parse", "--short", "HEAD").Output()
	v := strings.TrimSpace(string(out))
	if err != nil || v == "" {
		return "", fmt.Errorf("no version: set VERSION (for example VERSION=1.2.3) or build from a git checkout")
	}
	v = "0.0.0+git." + v
	return v, nil
}

func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}
