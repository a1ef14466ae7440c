//go:build mage

// Build, test and release targets for ctrld-install. Run `go run mage.go -l`
// to list them.
package main

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/magefile/mage/mg"
	"github.com/magefile/mage/sh"
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
	{"./wrapper/internal/settings", "FuzzParsePlist"},
}

// Fuzz runs each fuzz target for a short while (FUZZTIME, default 10s).
func Fuzz() error {
	fuzztime := envOr("FUZZTIME", "10s")
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

// Dist builds the release into dist/: ctrld-install and ctrld for every platform (the demo ctrld when CTRLD_DIR is not set), then SHA256SUMS.
func Dist() error {
	mg.Deps(Build)
	demo := os.Getenv("CTRLD_DIR") == ""
	if demo {
		fmt.Println("DEMO BUILD: no CTRLD_DIR given, packaging the demo ctrld from testdata/fakectrld")
	}
	if err := stageCtrld(demo); err != nil {
		return err
	}
	if err := writeChecksums(distDir); err != nil {
		return err
	}
	if demo {
		fmt.Println("DEMO BUILD: these artifacts carry the demo ctrld, not a real one")
	}
	return nil
}

// stageCtrld puts a ctrld beside each ctrld-install: the real one from
// CTRLD_DIR/<os>-<arch>/, or the demo built from testdata.
func stageCtrld(demo bool) error {
	for _, p := range platforms {
		out := filepath.Join(filepath.Dir(wrapperPath(p.OS, p.Arch)), exeName("ctrld", p.OS))
		if demo {
			env := map[string]string{"GOOS": p.OS, "GOARCH": p.Arch, "CGO_ENABLED": "0"}
			if err := sh.RunWith(env, "go", "build", "-trimpath", "-ldflags", "-s -w -buildid=", "-o", out, "./testdata/fakectrld"); err != nil {
				return err
			}
			continue
		}
		src := filepath.Join(os.Getenv("CTRLD_DIR"), p.OS+"-"+p.Arch, exeName("ctrld", p.OS))
		if err := sh.Copy(out, src); err != nil {
			return fmt.Errorf("ctrld for %s-%s: %w", p.OS, p.Arch, err)
		}
	}
	return nil
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
	out, err := exec.Command("git", "describe", "--tags", "--always", "--dirty").Output()
	if err != nil || strings.TrimSpace(string(out)) == "" {
		return "", fmt.Errorf("no version: set VERSION (for example VERSION=1.2.3) or build from a git checkout")
	}
	return strings.TrimPrefix(strings.TrimSpace(string(out)), "v"), nil
}

func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}
