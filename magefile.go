//go:build mage

// Build, test and release targets for ctrld-install. Run `go run mage.go -l`
// to list them.
package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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
	name := "ctrld-install"
	if goos == "windows" {
		name += ".exe"
	}
	return filepath.Join(distDir, "bin", goos+"-"+goarch, name)
}

// Test runs every test tier: vet for all three OSes, unit tests, CLI scenarios, short fuzzing and end-to-end installs.
func Test() {
	mg.SerialDeps(Vet, UnitAndScenarios, Fuzz)
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
