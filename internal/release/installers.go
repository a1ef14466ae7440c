package release

import (
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/ctrld-install/ctrld-install/installers/linux"
	"github.com/ctrld-install/ctrld-install/installers/macos"
	"github.com/ctrld-install/ctrld-install/installers/signing"
	"github.com/ctrld-install/ctrld-install/installers/windows"
)

// pkgInstaller is the macOS product archive with universal binaries; the
// package signs itself when given an identity.
type pkgInstaller struct{ pkg macos.Package }

func newPkg(in Input) Installer {
	var ctrld, wrapper []string
	for _, b := range in.Binaries {
		ctrld, wrapper = append(ctrld, b.Ctrld), append(wrapper, b.Wrapper)
	}
	return pkgInstaller{macos.Package{
		Identifier: "com.controld.ctrld", Version: in.Version, MTime: in.MTime,
		CtrldName: filepath.Base(ctrld[len(ctrld)-1]),
		Ctrld:     universalInputs(ctrld), Wrapper: wrapper,
		Signer: identityOf(in.Signer),
	}}
}

func (i pkgInstaller) FileName() string { return i.pkg.FileName() }

func (i pkgInstaller) Build(w io.Writer) (bool, error) { return i.pkg.Build(w) }

// universalInputs gives the pkg every Mac slice, or the one file when a
// universal ("all") archive served both.
func universalInputs(slices []string) []string {
	if len(slices) == 2 && slices[0] == slices[1] {
		return slices[:1]
	}
	return slices
}

// msiInstaller is one Windows Installer package. Its ctrld-install.exe was
// signed when it was staged; the MSI is signed last, once written.
type msiInstaller struct {
	msi windows.Package
	id  *signing.Identity
}

// msiArch is Windows Installer's name for each Windows platform.
var msiArch = map[string]string{"amd64": windows.ArchX64, "arm64": windows.ArchArm64, "386": windows.ArchX86}

func newMsi(in Input) Installer {
	b := in.Binaries[0]
	p := windows.Package{Version: msiVersion(in.Version), Arch: msiArch[b.Arch], MTime: in.MTime, Ctrld: b.Ctrld, Wrapper: b.Wrapper}
	return msiInstaller{msi: p, id: identityOf(in.Signer)}
}

func (i msiInstaller) FileName() string { return i.msi.FileName() }

func (i msiInstaller) Build(w io.Writer) (bool, error) {
	if i.id == nil {
		return false, i.msi.Build(w)
	}
	return true, viaFile(w, func(path string) error {
		if err := writeWith(path, i.msi.Build); err != nil {
			return err
		}
		return signing.SignMSI(i.id, path)
	})
}

// msiVersion keeps the numeric x.y.z that Windows Installer compares.
func msiVersion(v string) string {
	return strings.FieldsFunc(v, func(r rune) bool { return r == '+' || r == '-' || r == '~' })[0]
}

// nfpmInstaller is a deb or an rpm.
type nfpmInstaller struct {
	format string
	pkg    linux.Package
}

func linuxPackage(in Input) linux.Package {
	b := in.Binaries[0]
	p := linux.Package{Name: "ctrld", Version: in.Version, Arch: b.Arch, MTime: in.MTime, Ctrld: b.Ctrld, Wrapper: b.Wrapper}
	if s, ok := in.Signer.(*GPGSigner); ok {
		p.SigningKey, p.SigningPassphrase = s.KeyFile, s.Passphrase
	}
	return p
}

func newNfpm(format string) func(Input) Installer {
	return func(in Input) Installer { return nfpmInstaller{format, linuxPackage(in)} }
}

// linuxPlatformsFor lists the Linux platforms format has a name for.
func linuxPlatformsFor(format string) []Platform {
	var ps []Platform
	for _, arch := range LinuxArches {
		if linux.ArchName(format, arch) != "" {
			ps = append(ps, Platform{"linux", arch})
		}
	}
	return ps
}

func (i nfpmInstaller) FileName() string {
	name, _ := i.pkg.FileName(i.format) // every listed platform has a name
	return name
}

func (i nfpmInstaller) Build(w io.Writer) (bool, error) {
	return i.pkg.SigningKey != "", i.pkg.Build(i.format, w)
}

// tarballInstaller is the tar.gz with install.sh.
type tarballInstaller struct{ pkg linux.Package }

func newTarball(in Input) Installer { return tarballInstaller{linuxPackage(in)} }

func (i tarballInstaller) FileName() string { return i.pkg.TarballName() }

func (i tarballInstaller) Build(w io.Writer) (bool, error) { return false, i.pkg.BuildTarball(w) }

// intuneCodes is the Graph return-code list for Intune.
type intuneCodes struct{}

func newIntuneCodes(Input) Installer { return intuneCodes{} }

func (intuneCodes) FileName() string { return "intune-return-codes.json" }

func (intuneCodes) Build(w io.Writer) (bool, error) { return false, windows.WriteReturnCodes(w) }

// viaFile runs a build that needs a file path and copies the result to w.
func viaFile(w io.Writer, build func(path string) error) error {
	dir, err := os.MkdirTemp("", "ctrld-release")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "artifact")
	if err := build(path); err != nil {
		return err
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(w, f)
	return err
}

func writeWith(path string, build func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := build(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
