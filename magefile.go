//go:build mage

// Build, test and release targets for ctrld-install. Run `go run mage.go -l`
// to list them. The release logic lives in internal/release; these targets
// read the environment and call it.
package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/magefile/mage/mg"
	"github.com/magefile/mage/sh"

	"github.com/ctrld-install/ctrld-install/installers/linux"
	"github.com/ctrld-install/ctrld-install/installers/signing"
	"github.com/ctrld-install/ctrld-install/internal/release"
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

// Pkg builds the macOS product archive with universal binaries into dist/ (signed in Go when CTRLD_SIGN_PKG_CERT and CTRLD_SIGN_PKG_KEY, or CTRLD_SIGN_PKG_PFX, are set; its Mach-O files code-signed when CTRLD_SIGN_MACHO_CERT and CTRLD_SIGN_MACHO_KEY, or CTRLD_SIGN_MACHO_PFX, are set).
func Pkg() error { return dist("pkg") }

// Msi builds the Windows MSIs (x64, arm64, x86) in Go into dist/ (each ctrld-install.exe and MSI Authenticode-signed in Go when CTRLD_SIGN_WINDOWS_CERT and CTRLD_SIGN_WINDOWS_KEY, or CTRLD_SIGN_WINDOWS_PFX, are set).
func Msi() error { return dist("msi") }

// Deb builds the Debian packages (amd64, arm64, i386, armhf, armel) into dist/ (GPG-signed when CTRLD_PACKAGE_SIGNING_KEY is set).
func Deb() error { return dist("deb") }

// Rpm builds the RPM packages (x86_64, aarch64, i686, armv7hl, armv6hl, armv5tel) into dist/ (GPG-signed when CTRLD_PACKAGE_SIGNING_KEY is set).
func Rpm() error { return dist("rpm") }

// Tarball builds the tar.gz archives with install.sh (amd64, arm64, 386, armv5, armv6, armv7) into dist/.
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

// canApt: root on Debian or a derivative, where apt-get installs for us.
func canApt() bool {
	if os.Geteuid() != 0 {
		return false
	}
	if _, err := os.Stat("/etc/debian_version"); err != nil {
		return false
	}
	_, err := exec.LookPath("apt-get")
	return err == nil
}

func aptInstall(pkgs []string) error {
	env := map[string]string{"DEBIAN_FRONTEND": "noninteractive"}
	if err := sh.RunWith(env, "apt-get", "update", "-qq"); err != nil {
		return err
	}
	return sh.RunWith(env, "apt-get", append([]string{"install", "-y", "-qq", "--no-install-recommends"}, pkgs...)...)
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
	cfg.Signing = release.Signing{Windows: ids.Windows, Pkg: ids.Pkg, MachO: ids.MachO,
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
func Tools() error {
	if !canApt() {
		return fmt.Errorf("tools: needs root on Debian; elsewhere install the packages in .ci/apt-packages by hand")
	}
	return installTestTools()
}

// installTestTools installs what .ci/apt-packages lists and dpkg lacks.
func installTestTools() error {
	pkgs, err := aptPackages()
	if err != nil {
		return err
	}
	var missing []string
	for _, p := range pkgs {
		if out, err := exec.Command("dpkg-query", "-W", "-f=${Status}", p).Output(); err != nil || !strings.HasSuffix(string(out), " installed") {
			missing = append(missing, p)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	fmt.Println("installing test tools from .ci/apt-packages:", strings.Join(missing, " "))
	return aptInstall(missing)
}

// TestTools installs the real-install tiers' tools when it runs as root on Debian; elsewhere those tiers skip (and fail under CI=true).
func TestTools() error {
	if !canApt() {
		fmt.Println("test tools: not root on Debian, so nothing is installed: tests needing dpkg, rpm, Wine or msitools skip (and fail under CI=true); install .ci/apt-packages to run them")
		return nil
	}
	return installTestTools()
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

// Test runs every test tier: the tools they need (root on Debian), vet and cross-builds for all three OSes, unit tests, CLI scenarios, end-to-end installs, the release checks and short fuzzing. The real-ctrld tier runs beside the others from the start.
func Test() error {
	mg.Deps(TestTools)
	realCtrld := startRealCtrldTier()
	err := runInTurn(Vet, Build, unitAndScenarios, Fuzz)
	return realCtrld.wait(err)
}

// runInTurn runs steps one after another and stops at the first failure.
func runInTurn(steps ...func() error) error {
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// Vet runs go vet for Linux, Windows and macOS, the demo ctrld in testdata included.
func Vet() error {
	for _, goos := range []string{"linux", "windows", "darwin"} {
		// ./... skips testdata folders, so the demo ctrld is named.
		if err := sh.RunWith(map[string]string{"GOOS": goos}, "go", "vet", "./...", "./testdata/fakectrld"); err != nil {
			return fmt.Errorf("go vet for %s: %w", goos, err)
		}
	}
	return nil
}

// racePackages are the wrapper's packages (pipes, timers, signals) and the
// format packages (the cabinet's spooling reader among them): every test
// of theirs runs with -race. Left out: the CLI scenarios (./wrapper
// itself), which run separately built binaries, so -race would watch only
// the harness and distort the scenarios' memory ceilings; and the
// installers built from the formats (./installers/macos), which only build
// artifacts, where -race costs many times the time and watches no
// goroutine.
var racePackages = []string{
	"./wrapper/codes/...", "./wrapper/internal/...", "./wrapper/settings/...",
	"./installers/macos/bom", "./installers/macos/cpio", "./installers/macos/macho", "./installers/macos/xar",
	"./installers/windows/cfb", "./installers/windows/msidb", "./installers/windows/cab",
}

// The release's goroutines are its fan-out and its progress writer: their
// tests run with -race. Its other tests build artifacts through them,
// where the race detector costs ten times the time (the compression is
// instrumented too) and watches the same code, so they run without it.
const (
	releasePackage   = "./internal/release"
	releaseRaceTests = "^(TestFanOut.*|TestProgressLinesStayWhole)$"
)

// UnitAndScenarios runs go test over the whole module: unit tests, CLI scenarios, end-to-end installs, release checks (race detector on the wrapper, the format packages and the release's fan-out); the real-ctrld tier runs beside the others.
func UnitAndScenarios() error {
	realCtrld := startRealCtrldTier()
	return realCtrld.wait(unitAndScenarios())
}

// slowestPackages start first, so that the Wine tier and the release
// builds, the longest test binaries, never start last.
var slowestPackages = []string{"./installers/windows", releasePackage}

// testBinariesAtOnce is go test's -p: many tests wait on timers, ctrld's
// stand-ins and Wine more than they compute, so more test binaries run at
// once than there are cores, the default.
func testBinariesAtOnce() string { return strconv.Itoa(runtime.NumCPU() + 2) }

// unitAndScenarios runs every package's tests but the real-ctrld tier's.
func unitAndScenarios() error {
	race := append([]string{"test", "-p", testBinariesAtOnce(), "-count=1", "-race", "-timeout", "30m"}, racePackages...)
	if err := sh.RunV("go", race...); err != nil {
		return err
	}
	if err := sh.RunV("go", "test", "-count=1", "-race", "-run", releaseRaceTests, releasePackage); err != nil {
		return err
	}
	rest, err := packagesExcept(append(append(racePackages, realCtrldPackage), slowestPackages...))
	if err != nil {
		return err
	}
	// The release's race tests ran above; their names are the release's alone.
	args := []string{"test", "-p", testBinariesAtOnce(), "-count=1", "-timeout", "30m", "-skip", releaseRaceTests}
	return sh.RunV("go", append(append(args, slowestPackages...), rest...)...)
}

// packagesExcept lists the module's packages not matched by patterns.
func packagesExcept(patterns []string) ([]string, error) {
	all, err := sh.Output("go", "list", "./...")
	if err != nil {
		return nil, err
	}
	skip, err := sh.Output("go", append([]string{"list"}, patterns...)...)
	if err != nil {
		return nil, err
	}
	skipped := map[string]bool{}
	for _, p := range strings.Fields(skip) {
		skipped[p] = true
	}
	var rest []string
	for _, p := range strings.Fields(all) {
		if !skipped[p] {
			rest = append(rest, p)
		}
	}
	return rest, nil
}

// fuzzTargets are run briefly on every test run, each for a few seconds' worth
// of executions on an idle machine here; longer runs are for `go test -fuzz`
// by hand. The budgets are counts, not durations: in Go 1.26 a duration
// races the fuzz coordinator's shutdown on a busy machine and fails a
// clean run with "context deadline exceeded".
var fuzzTargets = []struct {
	Pkg, Name string
	Execs     int
}{
	{"./wrapper/internal/scan", "FuzzScanner", 60000},
	{"./wrapper/settings", "FuzzParsePlist", 2000},
	{"./installers/macos/xar", "FuzzReader", 60},
	{"./installers/macos/cpio", "FuzzReader", 150000},
	{"./installers/macos/bom", "FuzzRead", 100000},
}

// Fuzz runs each fuzz target for its budget (FUZZTIME, a duration or a
// count such as 1000x, overrides it for all).
func Fuzz() error {
	for _, f := range fuzzTargets {
		budget := envOr("FUZZTIME", strconv.Itoa(f.Execs)+"x")
		if err := sh.RunV("go", "test", "-run", "^$", "-fuzz", "^"+f.Name+"$", "-fuzztime", budget, f.Pkg); err != nil {
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

// The real-ctrld tier: every scenario has namespaces of its own and spends
// most of its time waiting on ctrld's timeouts, so its scenarios run many
// at once, beside the other tiers.
const (
	realCtrldPackage  = "./internal/testing/realctrld"
	realCtrldParallel = "8"
)

// realCtrldPriority runs the tier ahead of the others on the CPU: its
// scenarios hold the real ctrld to the contract's time bounds (a reload
// within 27 s), which the other tiers' compiles and compression must not
// eat into. Raising a priority takes root, as the tier does; elsewhere
// nice says it could not and runs the tier as it is.
func realCtrldPriority() []string {
	nice, err := exec.LookPath("nice")
	if err != nil {
		return nil
	}
	return []string{nice, "-n", "-10"}
}

// backgroundTier is a go test run beside the others; its output is kept
// and printed whole once it ends, so it does not interleave.
type backgroundTier struct {
	cancel context.CancelFunc
	done   chan error
	output bytes.Buffer
}

// startRealCtrldTier starts the real-ctrld tier's go test.
func startRealCtrldTier() *backgroundTier {
	ctx, cancel := context.WithCancel(context.Background())
	tier := &backgroundTier{cancel: cancel, done: make(chan error, 1)}
	argv := append(realCtrldPriority(), mg.GoCmd(), "test", "-count=1", "-timeout", "30m", "-parallel", realCtrldParallel, realCtrldPackage)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdout, cmd.Stderr = &tier.output, &tier.output
	// go test passes an interrupt on to the test binary, whose scenarios
	// then end their namespaces; a kill would orphan them.
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = time.Minute
	fmt.Println("real-ctrld tier: started beside the others")
	go func() { tier.done <- cmd.Run() }()
	return tier
}

// wait ends the tier (at once when the others failed), prints its output
// and joins its failure to theirs.
func (t *backgroundTier) wait(others error) error {
	if others != nil {
		t.cancel()
	}
	err := <-t.done
	t.cancel()
	os.Stdout.Write(t.output.Bytes())
	if err != nil && others == nil {
		return fmt.Errorf("real-ctrld tier: %w", err)
	}
	return others
}
