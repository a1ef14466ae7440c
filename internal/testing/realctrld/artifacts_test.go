//go:build linux

package realctrld

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/installers/linux"
	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// artifacts are built once per real ctrld and test binary, and linked
// into each scenario's share folder.
type artifacts struct {
	dir  string
	err  string
	once sync.Once
}

var (
	builtMu sync.Mutex
	built   = map[string]*artifacts{}
)

// artifactsOf returns the artifacts of one real ctrld, built on first use.
func artifactsOf(t *testing.T, real string) string {
	builtMu.Lock()
	a, ok := built[real]
	if !ok {
		a = &artifacts{}
		built[real] = a
	}
	builtMu.Unlock()
	return a.build(t, real)
}

// Names in the share folder.
const (
	shareCtrld   = "ctrld"
	shareWrapper = "ctrld-install"
	shareDeb     = "ctrld.deb"
	shareRPM     = "ctrld.rpm"
	shareTarball = "ctrld.tar.gz"
	// shareUpgradeDeb is the same ctrld packaged at a higher version.
	shareUpgradeDeb = "ctrld-upgrade.deb"
	// shareNextDeb is the next real ctrld's upgrade package, for a
	// scenario that upgrades from one version to the next.
	shareNextDeb = "ctrld-next.deb"
)

func (a *artifacts) build(t *testing.T, real string) string {
	a.once.Do(func() {
		dir, err := os.MkdirTemp("", "realctrld-artifacts")
		if err != nil {
			a.err = err.Error()
			return
		}
		a.dir = dir
		data, err := os.ReadFile(real)
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, shareCtrld), data, 0o755)
		}
		if err != nil {
			a.err = err.Error()
			return
		}
		testenv.GoBuild(t, dir, shareWrapper, "./wrapper", "CGO_ENABLED=0", "GOOS=linux", "GOARCH=amd64")
		pkg := linux.Package{
			Name: "ctrld", Version: packageVersion, Arch: "amd64",
			Ctrld: filepath.Join(dir, shareCtrld), Wrapper: filepath.Join(dir, shareWrapper),
			MTime: time.Unix(1767225600, 0),
		}
		upgrade := pkg
		upgrade.Version = upgradeVersion
		for _, b := range []struct {
			pkg    linux.Package
			format linux.Format
			name   string
		}{{pkg, linux.Deb, shareDeb}, {pkg, linux.RPM, shareRPM}, {upgrade, linux.Deb, shareUpgradeDeb}} {
			f, err := os.Create(filepath.Join(dir, b.name))
			if err == nil {
				b.pkg.Format = b.format
				_, err = b.pkg.Build(f)
				f.Close()
			}
			if err != nil {
				a.err = b.name + ": " + err.Error()
				return
			}
		}
		f, err := os.Create(filepath.Join(dir, shareTarball))
		if err == nil {
			pkg.Format = linux.Tarball
			_, err = pkg.Build(f)
			f.Close()
		}
		if err != nil {
			a.err = "tarball: " + err.Error()
		}
	})
	if a.err != "" {
		t.Fatal("artifacts: " + a.err)
	}
	return a.dir
}

// newSandbox prepares a scenario with the real ctrld, the wrapper and
// the packages in its share folder.
func newSandbox(t *testing.T, ctrld ctrldBinary, name string) *sandbox {
	t.Helper()
	s := prepareSandbox(t, name)
	dir := artifactsOf(t, ctrld.Path)
	for _, n := range []string{shareCtrld, shareWrapper, shareDeb, shareRPM, shareTarball, shareUpgradeDeb} {
		if err := os.Link(filepath.Join(dir, n), filepath.Join(s.shareDir(), n)); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// shareNext links the next real ctrld's upgrade package into the
// scenario's share folder as shareNextDeb.
func shareNext(t *testing.T, s *sandbox, next ctrldBinary) {
	t.Helper()
	dir := artifactsOf(t, next.Path)
	if err := os.Link(filepath.Join(dir, shareUpgradeDeb), filepath.Join(s.shareDir(), shareNextDeb)); err != nil {
		t.Fatal(err)
	}
}

// forEachCtrld runs test once per real ctrld, as a subtest named after
// its version. Each scenario has namespaces of its own, so they all run
// in parallel: they spend most of their time waiting on ctrld's timeouts.
func forEachCtrld(t *testing.T, test func(t *testing.T, ctrld ctrldBinary)) {
	t.Parallel()
	for _, c := range ctrldBinaries(t) {
		t.Run(c.Version, func(t *testing.T) {
			t.Parallel()
			test(t, c)
		})
	}
}

// v1LineGap is why a scenario runs only the first line's binaries: it
// still names that line's service and files (/etc/init.d/ctrld,
// ctrld.service), so the client line goes through the scenarios written
// for it (clientline, linemove, files, the CLI fixtures) instead.
const v1LineGap = "this scenario names the first line's service; the client line has scenarios of its own"

// firstLineBinaries are the real ctrld binaries of the first line (ctrld,
// not ctrld-client), in CTRLD_REAL's order.
func firstLineBinaries(t *testing.T) []ctrldBinary {
	t.Helper()
	var out []ctrldBinary
	for _, c := range ctrldBinaries(t) {
		if binaryName(c) == names.Ctrld {
			out = append(out, c)
		}
	}
	return out
}

// forEachFirstLineCtrld is forEachCtrld for a scenario of the first line
// only: a client-line binary is skipped, saying why.
func forEachFirstLineCtrld(t *testing.T, test func(t *testing.T, ctrld ctrldBinary)) {
	forEachCtrld(t, func(t *testing.T, ctrld ctrldBinary) {
		if binaryName(ctrld) != names.Ctrld {
			t.Skip(v1LineGap)
		}
		test(t, ctrld)
	})
}
