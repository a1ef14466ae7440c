package release

import (
	"path/filepath"
	"strings"

	"github.com/ctrld-install/ctrld-install/installers/linux"
	"github.com/ctrld-install/ctrld-install/installers/macos"
	"github.com/ctrld-install/ctrld-install/installers/windows"
	"github.com/ctrld-install/ctrld-install/internal/names"
)

// newPkg is the macOS product archive with universal binaries.
func newPkg(in Input) Installer {
	var ctrld, wrapper []string
	for _, b := range in.Binaries {
		ctrld, wrapper = append(ctrld, b.Ctrld), append(wrapper, b.Wrapper)
	}
	return macos.Package{
		Identifier: names.PkgIdentifier, Version: in.Version, MTime: in.MTime,
		CtrldName: filepath.Base(ctrld[len(ctrld)-1]),
		Ctrld:     universalInputs(ctrld), Wrapper: wrapper,
		Signer: in.Signing.Pkg, CodeSigner: in.Signing.MachO,
	}
}

// universalInputs gives the pkg every Mac slice, or the one file when a
// universal ("all") archive served both.
func universalInputs(slices []string) []string {
	if len(slices) == 2 && slices[0] == slices[1] {
		return slices[:1]
	}
	return slices
}

// msiArch is Windows Installer's name for each Windows platform.
var msiArch = map[string]string{"amd64": windows.ArchX64, "arm64": windows.ArchArm64, "386": windows.ArchX86}

// newMsi is one Windows Installer package. Its ctrld-install.exe was
// signed when it was staged; the MSI signs itself once written.
func newMsi(in Input) Installer {
	b := in.Binaries[0]
	return windows.Package{
		Version: msiVersion(in.Version), Arch: msiArch[b.Arch], MTime: in.MTime,
		Ctrld: b.Ctrld, Wrapper: b.Wrapper, Signer: in.Signing.Windows,
	}
}

// msiVersion keeps the numeric x.y.z that Windows Installer compares.
func msiVersion(v string) string {
	return strings.FieldsFunc(v, func(r rune) bool { return r == '+' || r == '-' || r == '~' })[0]
}

// newLinux makes the deb, rpm or tar.gz of one platform; deb and rpm are
// signed with the package key when one is given.
func newLinux(format linux.Format) func(Input) Installer {
	return func(in Input) Installer {
		b := in.Binaries[0]
		return linux.Package{
			Format: format, Name: names.LinuxPackage, Version: in.Version, Arch: b.Arch, MTime: in.MTime,
			Ctrld: b.Ctrld, Wrapper: b.Wrapper,
			SigningKey: in.Signing.PackageGPGKey, SigningPassphrase: in.Signing.PackageGPGPassphrase,
		}
	}
}

// linuxPlatformsFor lists the Linux platforms format has a name for.
func linuxPlatformsFor(format linux.Format) []Platform {
	var ps []Platform
	for _, arch := range LinuxArches {
		if linux.ArchName(format, arch) != "" {
			ps = append(ps, Platform{"linux", arch})
		}
	}
	return ps
}

func newIntuneCodes(Input) Installer { return windows.ReturnCodesFile{} }
