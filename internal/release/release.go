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
	"strings"
	"time"

	"github.com/ctrld-install/ctrld-install/installers/signing"
)

// Platform is one OS/architecture pair, named as ctrld's releases name
// it: Arch is amd64, arm64, 386, or armv5/armv6/armv7 for 32-bit ARM.
type Platform struct{ OS, Arch string }

func (p Platform) String() string { return p.OS + "-" + p.Arch }

// GOARCH is the Go architecture that builds for p.
func (p Platform) GOARCH() string {
	if strings.HasPrefix(p.Arch, "armv") {
		return "arm"
	}
	return p.Arch
}

// GOARM is the ARM version for GOARCH=arm, empty otherwise.
func (p Platform) GOARM() string {
	if v, ok := strings.CutPrefix(p.Arch, "armv"); ok {
		return v
	}
	return ""
}

// Platforms ctrld ships for, and so ctrld-install too.
var Platforms = []Platform{
	{"darwin", "amd64"}, {"darwin", "arm64"},
	{"linux", "amd64"}, {"linux", "arm64"}, {"linux", "386"},
	{"linux", "armv5"}, {"linux", "armv6"}, {"linux", "armv7"},
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
	// Line is the ctrld line the release packages, by its binary's name
	// (ctrld or ctrld-client): empty takes it from the inputs, or the
	// first line for the demo ctrld. Once staged, it is the inputs'.
	Line string
	// Kinds limits the build to these artifact kinds (pkg, msi, deb, rpm,
	// tar.gz, ctrld-install-windows, ctrld-install-darwin,
	// ctrld-install-linux, intune-return-codes); empty builds all.
	Kinds []string

	out *progressWriter
}

// kindsLabel names the wanted kinds, for messages.
func (c Config) kindsLabel() string {
	if len(c.Kinds) == 0 {
		return "the release"
	}
	return strings.Join(c.Kinds, ", ")
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

// Signing holds the optional signing inputs: nil identities and an empty
// key file build unsigned. The identities are checked before they get
// here (signing.FromEnv).
type Signing struct {
	Windows       *signing.Identity // Authenticode: every ctrld-install.exe and the MSIs
	Pkg           *signing.Identity // the macOS pkg
	MachO         *signing.Identity // code signatures of the Mach-O files in the pkg
	PackageGPGKey string            // armored key for deb and rpm (nfpm)
	// PackageGPGPassphrase unlocks PackageGPGKey, if it needs it.
	PackageGPGPassphrase string
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

func (c Config) progress(format string, args ...any) { c.out.printf(format, args...) }

// check validates the configuration and readies the progress output.
func (c *Config) check() error {
	c.out = &progressWriter{w: c.Progress}
	for _, k := range c.Kinds {
		if _, ok := KindNamed(k); !ok {
			return fmt.Errorf("release: unknown kind %q", k)
		}
	}
	if c.Out == "" || c.Work == "" || c.Repo == "" {
		return fmt.Errorf("release: Out, Work and Repo are required")
	}
	if c.MTime.IsZero() {
		return fmt.Errorf("release: no build time: set SOURCE_DATE_EPOCH")
	}
	if c.CtrldDir != "" && c.ArchiveDir != "" {
		return fmt.Errorf("release: give ctrld binaries or release archives, not both")
	}
	if err := c.checkLine(); err != nil {
		return err
	}
	return os.MkdirAll(c.Out, 0o755)
}
