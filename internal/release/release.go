// Package release builds a whole ctrld release: ctrld-install for every
// platform, ctrld from the given binaries or release archives (or the demo
// ctrld), every installer, SHA256SUMS and a manifest. The magefile's
// targets are thin calls into it, so it is tested like any package.
package release

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// Platform is one OS/architecture pair.
type Platform struct{ OS, Arch string }

func (p Platform) String() string { return p.OS + "-" + p.Arch }

// Platforms ctrld-install ships for.
var Platforms = []Platform{
	{"darwin", "amd64"}, {"darwin", "arm64"},
	{"linux", "amd64"}, {"linux", "arm64"},
	{"windows", "amd64"}, {"windows", "arm64"}, {"windows", "386"},
}

// Config is one release build. Inputs are data: a folder of ctrld binaries,
// a folder of ctrld's release archives, or neither (the demo ctrld).
type Config struct {
	// Out receives the installers, SHA256SUMS and manifest.json.
	Out string
	// Work holds intermediate binaries.
	Work string
	// Version goes into every artifact; empty takes it from the release
	// archives.
	Version string
	// MTime stamps everything (SOURCE_DATE_EPOCH).
	MTime time.Time
	// CtrldDir holds <os>-<arch>/ctrld[.exe] (or ctrld-client).
	CtrldDir string
	// ArchiveDir holds ctrld's published archives as downloaded:
	// ctrld_<version>_<os>_<arch>.tar.gz, .zip for Windows.
	ArchiveDir string
	Signing    Signing
	// Progress receives one line per artifact.
	Progress io.Writer
	// Repo is the module root, for go build.
	Repo string
	// Kinds limits the build to these artifact kinds (pkg, msi, deb, rpm,
	// tar.gz, intune-return-codes); empty builds all.
	Kinds []string
}

func (c Config) wants(kind string) bool {
	if len(c.Kinds) == 0 {
		return true
	}
	for _, k := range c.Kinds {
		if k == kind {
			return true
		}
	}
	return false
}

// Signing holds the optional signing inputs.
type Signing struct {
	PkgIdentity     string // productsign identity (macOS only)
	MsiCert, MsiKey string // PEM, osslsigncode
	PackageGPGKey   string // armored key for deb and rpm
}

// Demo reports whether the release carries the demo ctrld.
func (c Config) Demo() bool { return c.CtrldDir == "" && c.ArchiveDir == "" }

func (c Config) binDir(p Platform) string { return filepath.Join(c.Work, "bin", p.String()) }

// WrapperPath is where ctrld-install for p is built.
func (c Config) WrapperPath(p Platform) string {
	return filepath.Join(c.binDir(p), exeName("ctrld-install", p.OS))
}

func exeName(name, goos string) string {
	if goos == "windows" {
		return name + ".exe"
	}
	return name
}

func (c Config) progress(format string, args ...any) {
	if c.Progress != nil {
		fmt.Fprintf(c.Progress, format+"\n", args...)
	}
}

func (c Config) check() error {
	if c.Out == "" || c.Work == "" || c.Repo == "" {
		return fmt.Errorf("release: Out, Work and Repo are required")
	}
	if c.MTime.IsZero() {
		return fmt.Errorf("release: no build time: set SOURCE_DATE_EPOCH")
	}
	if c.CtrldDir != "" && c.ArchiveDir != "" {
		return fmt.Errorf("release: give ctrld binaries or release archives, not both")
	}
	return os.MkdirAll(c.Out, 0o755)
}
