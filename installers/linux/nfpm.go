package linux

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/goreleaser/nfpm/v2"
	_ "github.com/goreleaser/nfpm/v2/deb" // registers the deb packager
	"github.com/goreleaser/nfpm/v2/files"
	_ "github.com/goreleaser/nfpm/v2/rpm" // registers the rpm packager

	"github.com/ctrld-install/ctrld-install/internal/names"
)

// Formats nfpm builds for us.
var Formats = []Format{Deb, RPM}

// Variables a release engineer sets to sign deb and rpm packages: an
// armored GPG private key file and its passphrase, if it has one.
const (
	KeyEnv        = "CTRLD_PACKAGE_SIGNING_KEY"
	PassphraseEnv = "CTRLD_PACKAGE_SIGNING_PASSPHRASE"
)

// buildNfpm writes the deb or rpm to w.
func (p Package) buildNfpm(w io.Writer) error {
	if err := p.check(); err != nil {
		return err
	}
	if _, err := p.formatArch(); err != nil {
		return err
	}
	packager, err := nfpm.Get(string(p.Format))
	if err != nil {
		return err
	}
	scripts, err := os.MkdirTemp("", "ctrld-pkg-scripts")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scripts)
	info, err := p.info(scripts)
	if err != nil {
		return err
	}
	return packager.Package(nfpm.WithDefaults(info), w)
}

// nfpmFileName is nfpm's conventional file name for the package.
func (p Package) nfpmFileName() (string, error) {
	packager, err := nfpm.Get(string(p.Format))
	if err != nil {
		return "", err
	}
	arch, err := p.formatArch()
	if err != nil {
		return "", err
	}
	info := nfpm.WithDefaults(&nfpm.Info{Name: p.Name, Version: p.Version, Arch: arch, Platform: "linux"})
	return packager.ConventionalFileName(info), nil
}

// formatArch is the package's architecture as its format names it.
func (p Package) formatArch() (string, error) {
	arch := ArchName(p.Format, p.Arch)
	if arch == "" {
		return "", fmt.Errorf("linux package: %s has no name for architecture %q", p.Format, p.Arch)
	}
	return arch, nil
}

// info is the nfpm description. nfpm reads scripts from files, so the
// rendered shims are written into dir.
func (p Package) info(dir string) (*nfpm.Info, error) {
	paths := map[string]string{}
	for _, name := range []string{"postinstall.sh", "preremove.sh", "postremove.sh"} {
		body, err := renderScript(name, p.vars(BinDir))
		if err != nil {
			return nil, err
		}
		paths[name] = filepath.Join(dir, name)
		if err := os.WriteFile(paths[name], body, 0o755); err != nil {
			return nil, err
		}
	}
	owned := func(mode os.FileMode) *files.ContentFileInfo {
		return &files.ContentFileInfo{Owner: "root", Group: "root", Mode: mode, MTime: p.MTime}
	}
	info := &nfpm.Info{
		Name: p.Name, Version: p.Version, Arch: p.Arch, Platform: "linux",
		Maintainer: maintainer, Description: description, Homepage: homepage,
		License: license, Vendor: vendor, Section: "net", Priority: "optional",
		MTime: p.MTime,
		Overridables: nfpm.Overridables{
			Contents: files.Contents{
				{Source: p.Ctrld, Destination: BinDir + "/" + p.CtrldName(), FileInfo: owned(0o755)},
				{Source: p.Wrapper, Destination: BinDir + "/" + names.Wrapper, FileInfo: owned(0o755)},
				// Root-only: the settings file holds the provisioning token.
				{Destination: Home, Type: files.TypeDir, FileInfo: owned(0o700)},
			},
			Scripts: nfpm.Scripts{
				PostInstall: paths["postinstall.sh"],
				PreRemove:   paths["preremove.sh"],
				PostRemove:  paths["postremove.sh"],
			},
		},
	}
	// Each format gets its own name for the architecture.
	info.Deb.Arch, info.RPM.Arch = ArchName(Deb, p.Arch), ArchName(RPM, p.Arch)
	// A fixed build host keeps rpm output the same on every machine.
	info.RPM.BuildHost = "ctrld-install"
	if p.SigningKey != "" {
		sig := nfpm.PackageSignature{KeyFile: p.SigningKey, KeyPassphrase: p.SigningPassphrase}
		info.Deb.Signature.PackageSignature = sig
		info.RPM.Signature.PackageSignature = sig
	}
	if p.MTime.IsZero() {
		return nil, fmt.Errorf("linux package: MTime must be set (reproducible builds)")
	}
	return info, nil
}
