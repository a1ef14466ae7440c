// Package linux builds ctrld's Linux packages: deb and rpm with the nfpm
// library, and a tar.gz with an install.sh shim. Every maintainer script
// is a shim that hands provisioning to ctrld-install.
package linux

import (
	"fmt"
	"io"
	"path"
	"path/filepath"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/names"
)

// Fixed places on the target machine.
const (
	BinDir       = names.LinuxBinDir
	Home         = names.Home
	SettingsFile = names.LinuxSettings
)

// Format is one of the Linux package formats.
type Format string

// The formats: deb and rpm built by nfpm, and a tar.gz with install.sh.
const (
	Deb     Format = "deb"
	RPM     Format = "rpm"
	Tarball Format = "tar.gz"
)

// Package describes one Linux package to build. Configuration is data:
// the formats differ only in the packager they hand it to.
type Package struct {
	Format  Format
	Name    string // package name, names.LinuxPackage
	Version string
	Arch    string // ctrld's release name: amd64, arm64, 386, armv5, armv6, armv7
	// Ctrld and Wrapper are the Linux binaries to package. The ctrld
	// binary keeps its own name (ctrld or ctrld-client).
	Ctrld, Wrapper string
	// MTime stamps every file; set from SOURCE_DATE_EPOCH for
	// reproducible builds.
	MTime time.Time
	// SigningKey is an armored GPG private key file; empty builds
	// unsigned. The passphrase comes from the environment (see Sign).
	SigningKey string
	// SigningPassphrase unlocks SigningKey, if it needs it.
	SigningPassphrase string
}

// Metadata every package carries.
const (
	maintainer  = "Control D <support@controld.com>"
	description = "Control D DNS client (ctrld), provisioned by ctrld-install"
	homepage    = "https://github.com/Control-D-Inc/ctrld"
	license     = "MIT"
	vendor      = "Control D"
)

// FileName is the format's conventional file name; empty when the
// format has no name for Arch (Build says why).
func (p Package) FileName() string {
	if p.Format == Tarball {
		return p.tarballName()
	}
	name, _ := p.nfpmFileName()
	return name
}

// Build writes the package to w and reports whether it signed it: deb
// and rpm are signed when SigningKey is set, the tarball never.
func (p Package) Build(w io.Writer) (signed bool, err error) {
	if p.Format == Tarball {
		return false, p.buildTarball(w)
	}
	return p.SigningKey != "", p.buildNfpm(w)
}

// CtrldName is the name the ctrld binary is installed under.
func (p Package) CtrldName() string { return filepath.Base(p.Ctrld) }

func (p Package) vars(bin string) scriptVars {
	name := p.CtrldName()
	return scriptVars{Bin: bin, Ctrld: name, Wrapper: names.Wrapper, Home: Home, SettingsFile: SettingsFile, TokenEnv: names.TokenEnv, HomeFiles: names.HomeFiles,
		RunFiles: within(names.RunDir, names.CtrldRunFiles(name)), Logs: everyLinesLogs(name)}
}

// everyLinesLogs are the logs of this package's ctrld and of every other
// line's: after a move between lines the other line's logs are still
// there, and a purge leaves nothing of either.
func everyLinesLogs(name string) []string {
	logs := within(names.LogDir, names.CtrldLogs(name))
	for _, l := range names.OtherLines(name) {
		logs = append(logs, within(names.LogDir, names.CtrldLogs(l.Binary))...)
	}
	for _, f := range names.CtrldLineHomeFiles() {
		if f != names.CtrldConfig { // among HomeFiles already
			logs = append(logs, path.Join(Home, f))
		}
	}
	return logs
}

// within names each file in dir, with the forward slashes of the target.
func within(dir string, names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = path.Join(dir, n)
	}
	return out
}

func (p Package) check() error {
	if p.Name == "" || p.Version == "" || p.Arch == "" || p.Ctrld == "" || p.Wrapper == "" {
		return fmt.Errorf("linux package: name, version, arch and both binaries are required")
	}
	if _, ok := Arches[p.Arch]; !ok {
		return fmt.Errorf("linux package: unknown architecture %q", p.Arch)
	}
	return nil
}

// ArchNames are one architecture's names in the deb and rpm formats; an
// empty name means the format has none for it.
type ArchNames struct{ Deb, RPM string }

// Arches maps ctrld's Linux architectures to each format's name. Go's 386
// port needs SSE2, so rpm's i686 (not i386). Debian's armhf port is ARMv7
// and its armel port ARMv5, so ARMv6 gets no deb: its users install the
// armel deb or the armv6 tarball. rpm has names for all three ARM levels.
var Arches = map[string]ArchNames{
	"amd64": {Deb: "amd64", RPM: "x86_64"},
	"arm64": {Deb: "arm64", RPM: "aarch64"},
	"386":   {Deb: "i386", RPM: "i686"},
	"armv7": {Deb: "armhf", RPM: "armv7hl"},
	"armv6": {Deb: "", RPM: "armv6hl"},
	"armv5": {Deb: "armel", RPM: "armv5tel"},
}

// ArchName is arch's name in format; the tarball keeps ctrld's own name.
// Empty when the format has no name for arch.
func ArchName(format Format, arch string) string {
	names := Arches[arch]
	switch format {
	case Deb:
		return names.Deb
	case RPM:
		return names.RPM
	case Tarball:
		if _, ok := Arches[arch]; ok {
			return arch
		}
	}
	return ""
}
