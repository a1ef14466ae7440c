//go:build mage

// Build, test and release targets for ctrld-install. Run `go run mage.go -l`
// to list them. The release logic lives in internal/release; these targets
// read the environment and call it.
package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/magefile/mage/mg"
	"github.com/magefile/mage/sh"

	"github.com/ctrld-install/ctrld-install/internal/release"
)

const (
	distDir = "dist"
	workDir = "build"
)

// Build cross-compiles ctrld-install (and stages ctrld beside it) for macOS, Windows and Linux, amd64 and arm64, into dist/bin.
func Build() error {
	cfg, err := config()
	if err != nil {
		return err
	}
	cfg.Work, cfg.Kinds = distDir, []string{"none"}
	_, err = release.Dist(cfg)
	return err
}

// Dist builds every installer for every platform into dist/, with SHA256SUMS and manifest.json (demo ctrld unless CTRLD_DIR or CTRLD_RELEASE_DIR is set).
func Dist() error { return dist() }

// Pkg builds the macOS product archive with universal binaries into dist/ (productsign on macOS with CTRLD_PKG_SIGN_IDENTITY).
func Pkg() error { return dist("pkg") }

// Msi builds the Windows MSIs (x64, arm64, x86) in Go into dist/ (signed when CTRLD_MSI_SIGN_CERT and CTRLD_MSI_SIGN_KEY are set).
func Msi() error { return dist("msi") }

// Deb builds the Debian packages (amd64, arm64) into dist/ (GPG-signed when CTRLD_PACKAGE_SIGNING_KEY is set).
func Deb() error { return dist("deb") }

// Rpm builds the RPM packages (amd64, arm64) into dist/ (GPG-signed when CTRLD_PACKAGE_SIGNING_KEY is set).
func Rpm() error { return dist("rpm") }

// Tarball builds the tar.gz archives with install.sh (amd64, arm64) into dist/.
func Tarball() error { return dist("tar.gz") }

// IntuneCodes writes dist/intune-return-codes.json (Graph win32LobAppReturnCode entries) from the code table.
func IntuneCodes() error { return dist("intune-return-codes") }

// Reproducible builds the release twice from the same inputs and fails unless both dist trees are byte-identical.
func Reproducible() error {
	cfg, err := config()
	if err != nil {
		return err
	}
	if err := release.CheckReproducible(cfg); err != nil {
		return err
	}
	fmt.Println("reproducible: two builds are byte-identical")
	return nil
}

func dist(kinds ...string) error {
	cfg, err := config()
	if err != nil {
		return err
	}
	cfg.Kinds = kinds
	_, err = release.Dist(cfg)
	return err
}

// config reads the release inputs from the environment.
func config() (release.Config, error) {
	repo, _ := os.Getwd()
	cfg := release.Config{
		Out: distDir, Work: workDir, Repo: repo, Progress: os.Stdout,
		CtrldDir: os.Getenv("CTRLD_DIR"), ArchiveDir: os.Getenv("CTRLD_RELEASE_DIR"),
		Version: os.Getenv("VERSION"),
		Signing: release.Signing{
			PkgIdentity: os.Getenv("CTRLD_PKG_SIGN_IDENTITY"),
			MsiCert:     os.Getenv("CTRLD_MSI_SIGN_CERT"), MsiKey: os.Getenv("CTRLD_MSI_SIGN_KEY"),
			PackageGPGKey: os.Getenv("CTRLD_PACKAGE_SIGNING_KEY"),
		},
	}
	if cfg.Version == "" && cfg.ArchiveDir == "" {
		v, err := gitVersion()
		if err != nil {
			return cfg, err
		}
		cfg.Version = v
	}
	mtime, err := sourceDateEpoch()
	cfg.MTime = mtime
	return cfg, err
}

// gitVersion is the latest tag, or 0.0.0+git.<commit> before the first tag.
func gitVersion() (string, error) {
	if out, err := exec.Command("git", "describe", "--tags").Output(); err == nil {
		return strings.TrimPrefix(strings.TrimSpace(string(out)), "v"), nil
	}
	out, err := exec.Command("git", "rev-parse", "--short", "HEAD").Output()
	if err != nil || strings.TrimSpace(string(out)) == "" {
		return "", fmt.Errorf("no version: set VERSION (for example VERSION=1.2.3) or build from a git checkout")
	}
	return "0.0.0+git." + strings.TrimSpace(string(out)), nil
}

// sourceDateEpoch is SOURCE_DATE_EPOCH, else the last commit's time.
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

// Tools installs, on Debian as root, every package the builds and tests need (the list in .ci/apt-packages).
func Tools() error {
	pkgs, err := aptPackages()
	if err != nil {
		return err
	}
	if err := sh.RunV("apt-get", "update"); err != nil {
		return err
	}
	return sh.RunV("apt-get", append([]string{"install", "-y", "--no-install-recommends"}, pkgs...)...)
}

func aptPackages() ([]string, error) {
	f, err := os.Open(filepath.Join(".ci", "apt-packages"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var pkgs []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" && !strings.HasPrefix(line, "#") {
			pkgs = append(pkgs, line)
		}
	}
	return pkgs, sc.Err()
}

// Test runs every test tier: vet and cross-builds for all three OSes, unit tests, CLI scenarios, end-to-end installs, the release checks and short fuzzing.
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

// UnitAndScenarios runs go test over the whole module: unit tests, CLI scenarios, end-to-end installs, release checks.
func UnitAndScenarios() error {
	return sh.RunV("go", "test", "-count=1", "-timeout", "40m", "./...")
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

// Bench runs the benchmarks and a release build, and prints one table: wrapper overhead, scanner throughput, peak RSS, pkg build, and each installer's build time and size.
func Bench() error {
	out, err := sh.Output("go", "test", "-run", "^$", "-bench", ".", "-benchmem", "-benchtime", envOr("BENCHTIME", "5x"),
		"./wrapper/...", "./installers/macos/")
	if err != nil {
		fmt.Println(out)
		return err
	}
	cfg, err := config()
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "ctrld-bench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	cfg.Out, cfg.Work, cfg.Progress = filepath.Join(tmp, "dist"), filepath.Join(tmp, "build"), nil
	arts, err := release.Dist(cfg)
	if err != nil {
		return err
	}
	release.WriteBenchTable(os.Stdout, release.ParseBench(out), arts)
	return nil
}

// WineStub rebuilds installers/windows/winestub/bcryptprimitives.dll (tests under Wine only) with mingw-w64.
func WineStub() error {
	dir := filepath.Join("installers", "windows", "winestub")
	return sh.RunV("x86_64-w64-mingw32-gcc", "-shared", "-O2", "-s", "-Wl,--no-insert-timestamp",
		"-o", filepath.Join(dir, "bcryptprimitives.dll"),
		filepath.Join(dir, "bcryptprimitives.c"), filepath.Join(dir, "bcryptprimitives.def"), "-ladvapi32")
}

// Clean removes dist/ and build/ (intermediate binaries).
func Clean() error {
	if err := os.RemoveAll(distDir); err != nil {
		return err
	}
	return os.RemoveAll(workDir)
}

func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}
