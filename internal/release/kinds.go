package release

import (
	"io"
	"time"

	"github.com/ctrld-install/ctrld-install/installers/linux"
)

// Installer is one artifact of the release, in the style of nfpm's
// packagers: it knows its conventional file name and writes itself.
type Installer interface {
	FileName() string
	Build(w io.Writer) (signed bool, err error)
}

// Input is what one installer packages: the staged binaries of its
// platforms, the version and time, and the signing inputs, of which each
// kind reads its own (unset: unsigned).
type Input struct {
	Version  string
	MTime    time.Time
	Binaries []Binaries
	Signing  Signing
}

// Binaries are the two programs staged for one platform.
type Binaries struct {
	Platform
	Ctrld, Wrapper string
}

// Kind is one kind of artifact. The release ranges over Kinds.
type Kind struct {
	Name, OS string
	// Platforms are the platforms a release of this kind packages.
	Platforms []Platform
	// Universal kinds make one installer of all their platforms (the
	// macOS pkg); the others make one installer per platform.
	Universal bool
	// New makes the installer for one Input.
	New func(in Input) Installer
	// SignedBy names the key or certificate that signs this kind, for
	// the progress; nil, or an empty result, means it builds unsigned.
	SignedBy func(Signing) string
	// HowToSign says which inputs sign the kind, for the unsigned line.
	HowToSign string
	// CodeSignedBy and HowToCodeSign say the same of the code signatures
	// of the programs inside, for a kind that carries them apart from its
	// own (the pkg's Mach-O files).
	CodeSignedBy  func(Signing) string
	HowToCodeSign string
}

// MsiArches are the Windows architectures that get an MSI: every one
// ctrld ships for.
var MsiArches = []string{"amd64", "arm64", "386"}

// LinuxArches are the Linux architectures packaged as deb, rpm and tar.gz
// (where the format has a name for the architecture, see linux.Arches).
var LinuxArches = []string{"amd64", "arm64", "386", "armv5", "armv6", "armv7"}

// Kinds is every artifact kind of a release, in build order.
var Kinds = []Kind{
	{
		Name: "pkg", OS: "darwin", Universal: true, New: newPkg,
		Platforms: []Platform{{"darwin", "amd64"}, {"darwin", "arm64"}},
		SignedBy:  pkgSignedBy, HowToSign: "CTRLD_SIGN_PKG_CERT and CTRLD_SIGN_PKG_KEY, or CTRLD_SIGN_PKG_PFX",
		CodeSignedBy: machOSignedBy, HowToCodeSign: "CTRLD_SIGN_MACHO_CERT and CTRLD_SIGN_MACHO_KEY, or CTRLD_SIGN_MACHO_PFX",
	},
	{
		Name: "msi", OS: "windows", New: newMsi, Platforms: platformsOf("windows", MsiArches),
		SignedBy: msiSignedBy, HowToSign: "CTRLD_SIGN_WINDOWS_CERT and CTRLD_SIGN_WINDOWS_KEY, or CTRLD_SIGN_WINDOWS_PFX",
	},
	{
		Name: "deb", OS: "linux", New: newLinux(linux.Deb), Platforms: linuxPlatformsFor(linux.Deb),
		SignedBy: gpgSignedBy, HowToSign: linux.KeyEnv,
	},
	{
		Name: "rpm", OS: "linux", New: newLinux(linux.RPM), Platforms: linuxPlatformsFor(linux.RPM),
		SignedBy: gpgSignedBy, HowToSign: linux.KeyEnv,
	},
	{Name: "tar.gz", OS: "linux", New: newLinux(linux.Tarball), Platforms: platformsOf("linux", LinuxArches)},
	{
		Name: standaloneWindows, OS: "windows", New: newStandaloneWindows, Platforms: platformsOf("windows", MsiArches),
		SignedBy: msiSignedBy, HowToSign: "CTRLD_SIGN_WINDOWS_CERT and CTRLD_SIGN_WINDOWS_KEY, or CTRLD_SIGN_WINDOWS_PFX",
	},
	{
		Name: standaloneDarwin, OS: "darwin", Universal: true, New: newStandaloneDarwin,
		Platforms: []Platform{{"darwin", "amd64"}, {"darwin", "arm64"}},
		SignedBy:  machOSignedBy, HowToSign: "CTRLD_SIGN_MACHO_CERT and CTRLD_SIGN_MACHO_KEY, or CTRLD_SIGN_MACHO_PFX",
	},
	{Name: standaloneLinux, OS: "linux", New: newStandaloneLinux, Platforms: platformsOf("linux", LinuxArches)},
	{Name: "intune-return-codes", OS: "windows", Universal: true, New: newIntuneCodes},
}

// KindNamed finds a kind in Kinds.
func KindNamed(name string) (Kind, bool) {
	for _, k := range Kinds {
		if k.Name == name {
			return k, true
		}
	}
	return Kind{}, false
}

func platformsOf(goos string, arches []string) []Platform {
	var ps []Platform
	for _, a := range arches {
		ps = append(ps, Platform{goos, a})
	}
	return ps
}

// inputs splits a kind's staged binaries into one Input per installer.
func (k Kind) inputs(base Input, staged map[Platform]Binaries) []Input {
	var all []Binaries
	for _, p := range k.Platforms {
		all = append(all, staged[p])
	}
	if k.Universal {
		in := base
		in.Binaries = all
		return []Input{in}
	}
	var ins []Input
	for _, b := range all {
		in := base
		in.Binaries = []Binaries{b}
		ins = append(ins, in)
	}
	return ins
}

// signedBy names what signs the kind; empty when it builds unsigned.
func (k Kind) signedBy(s Signing) string {
	if k.SignedBy == nil {
		return ""
	}
	return k.SignedBy(s)
}
