//go:build mage

// Build, test and release targets for ctrld-install. Run `go run mage.go -l`
// to list them. The release logic lives in internal/release and the test
// tiers in internal/testing/tiers; these targets read the environment and
// call them.
package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/magefile/mage/mg"
	"github.com/magefile/mage/sh"

	"github.com/ctrld-install/ctrld-install/installers/linux"
	"github.com/ctrld-install/ctrld-install/installers/signing"
	"github.com/ctrld-install/ctrld-install/internal/release"
	"github.com/ctrld-install/ctrld-install/internal/testing/tiers"
)

const (
	distDir = "dist"
	workDir = "build"
)

// Build cross-compiles ctrld-install (and stages ctrld beside it) for every platform ctrld ships into dist/bin.
func Build() error {
	cfg, err := config()
	if err != nil {
		return err
	}
	cfg.Work = distDir
	return release.Stage(cfg)
}

// Dist builds every installer for every platform into dist/, with SHA256SUMS and manifest.json (demo ctrld unless CTRLD_DIR or CTRLD_RELEASE_DIR is set).
func Dist() error { return dist() }

// Kinds lists each installer kind's platforms and the variables that sign it.
func Kinds() error { return release.WriteKinds(os.Stdout) }

// Pkg builds the macOS product archive with universal binaries into dist/ (platforms and signing: see kinds).
func Pkg() error { return dist("pkg") }

// Msi builds the Windows MSIs in Go into dist/, each ctrld-install.exe and MSI Authenticode-signed in Go when signing is set (see kinds).
func Msi() error { return dist("msi") }

// Deb builds the Debian packages into dist/, GPG-signed when signing is set (see kinds).
func Deb() error { return dist("deb") }

// Rpm builds the RPM packages into dist/, GPG-signed when signing is set (see kinds).
func Rpm() error { return dist("rpm") }

// Tarball builds the tar.gz archives with install.sh into dist/ (platforms: see kinds).
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
	}
	// The identities load and are checked before anything is built; the
	// messages name files and certificates, never key material.
	ids, err := signing.FromEnv(os.Getenv)
	if err != nil {
		return cfg, err
	}
	cfg.Signing = release.Signing{Windows: ids.Windows, Pkg: ids.Pkg,
		PackageGPGKey: os.Getenv(linux.KeyEnv), PackageGPGPassphrase: os.Getenv(linux.PassphraseEnv)}
	// Read: from here on no process the release starts (git, apt-get, go
	// build) sees a key path or a password.
	release.ForgetSecrets()
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

// Tools installs, on Debian as root, every package the builds and tests need that is missing (the list in .ci/apt-packages).
func Tools() error { return tiers.Tools() }

// TestTools installs the real-install tiers' tools when it runs as root on Debian; elsewhere those tiers skip (and fail under CI=true).
func TestTools() error { return tiers.TestTools() }

// Test runs every test tier: the tools they need (root on Debian), vet and cross-builds for every release OS, unit tests, CLI scenarios, end-to-end installs, the release checks and short fuzzing of every fuzz target. The real-ctrld tier runs beside the others from the start.
func Test() error {
	mg.Deps(TestTools)
	return tiers.Test(Build)
}

// TestPlan prints the commands test runs, tier by tier, without running them.
func TestPlan() error { return tiers.Plan(os.Stdout) }

// Vet runs go vet for every OS the release ships, the demo ctrld in testdata included.
func Vet() error { return tiers.Vet() }

// UnitAndScenarios runs go test over the whole module: unit tests, CLI scenarios, end-to-end installs, release checks (race detector on the wrapper, the format packages and the release's fan-out); the real-ctrld tier runs beside the others.
func UnitAndScenarios() error { return tiers.UnitAndScenarios() }

// Fuzz runs every fuzz target of the module, found by listing, for its budget (FUZZTIME, a duration or a count such as 1000x, overrides it for all).
func Fuzz() error { return tiers.Fuzz() }

// Bench runs the benchmarks and a release build, and prints one table: wrapper overhead, scanner throughput, peak RSS, pkg build, and each installer's build time and size.
func Bench() error {
	cfg, err := config()
	if err != nil {
		return err
	}
	return tiers.Bench(cfg)
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

// Notarize submits dist/'s signed pkg to Apple's notary service and waits, bounded, for the verdict; a rejection prints Apple's log (CTRLD_NOTARY_ISSUER, CTRLD_NOTARY_KEY_ID, CTRLD_NOTARY_KEY: the App Store Connect API key).
func Notarize() error { return release.Notarize(context.Background(), distDir, os.Getenv, os.Stdout) }

// Staple appends Apple's ticket to dist/'s notarized pkg, as Apple's stapler does, and updates SHA256SUMS and manifest.json.
func Staple() error { return release.Staple(context.Background(), distDir, os.Getenv, os.Stdout) }
