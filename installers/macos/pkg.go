// Package macos builds ctrld's macOS installer: a product archive (.pkg)
// holding one component package that installs ctrld and ctrld-install in
// /Library/ControlD and runs a postinstall shim. It is pure Go, so it builds
// on any OS; the format layers live in the xar, cpio, bom and macho
// packages beside this one. The sample configuration profile is rendered
// here too (mobileconfig.go).
package macos

import (
	"bytes"
	_ "embed"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"text/template"
	"time"

	"github.com/ctrld-install/ctrld-install/installers/macos/macho"
	"github.com/ctrld-install/ctrld-install/installers/macos/xar"
	"github.com/ctrld-install/ctrld-install/installers/signing"
	"github.com/ctrld-install/ctrld-install/internal/names"
)

//go:embed scripts/postinstall
var postinstallTemplate string

// postinstall is the shim of a package of the first line (ctrld).
var postinstall = renderPostinstall(names.Ctrld)

// renderPostinstall is the shim that runs the ctrld named ctrld.
func renderPostinstall(ctrld string) []byte {
	var buf bytes.Buffer
	t := template.Must(template.New("postinstall").Parse(postinstallTemplate))
	if err := t.Execute(&buf, struct{ Ctrld string }{ctrld}); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// Package describes the .pkg to build. Configuration is data.
type Package struct {
	Identifier string // receipt id, names.PkgIdentifier
	Version    string
	Title      string
	// Ctrld and Wrapper are each one Mach-O file or several thin slices
	// (amd64, arm64) to merge into a universal binary. Ctrld keeps its
	// file name (ctrld or ctrld-client); with several slices, CtrldName
	// sets it.
	Ctrld, Wrapper []string
	CtrldName      string
	// MTime stamps every entry and the archive; pin it for reproducible
	// output. It is also the signature's signing time.
	MTime time.Time
	// Signer, when set, signs the package (a Developer ID Installer
	// identity, or an organisation's installer-signing one).
	Signer *signing.Identity
	// CodeSigner, when set, code-signs every Mach-O file before it is
	// packaged (a Developer ID Application identity): each slice of
	// ctrld-install, and each slice of ctrld that its publisher has not
	// signed already.
	CodeSigner *signing.Identity
}

func (p Package) check() error {
	if p.Identifier == "" || p.Version == "" || len(p.Ctrld) == 0 || len(p.Wrapper) == 0 || p.MTime.IsZero() {
		return fmt.Errorf("macos pkg: identifier, version, binaries and MTime are required")
	}
	if !plainName.MatchString(p.ctrldName()) {
		return fmt.Errorf("macos pkg: ctrld name %q: letters, digits, '.', '_' and '-' only (the postinstall names it)", p.ctrldName())
	}
	return nil
}

// plainName is a file name the postinstall can hold unquoted.
var plainName = regexp.MustCompile(`^[A-Za-z0-9._-]+$`)

func (p Package) ctrldName() string {
	if p.CtrldName != "" {
		return p.CtrldName
	}
	return filepath.Base(p.Ctrld[0])
}

// FileName is the conventional output name.
func (p Package) FileName() string { return "ctrld-" + p.Version + ".pkg" }

// Build writes the product archive to w and reports whether it signed
// it. A signing identity that cannot sign fails before anything is
// written.
func (p Package) Build(w io.Writer) (signed bool, err error) {
	if err := p.check(); err != nil {
		return false, err
	}
	now := time.Now()
	signer, err := p.xarSigner(now)
	if err != nil {
		return false, err
	}
	if err := p.checkCodeSigner(now); err != nil {
		return false, err
	}
	return signer != nil, p.build(w, signer)
}

func (p Package) build(w io.Writer, signer *xar.Signer) error {
	work, err := os.MkdirTemp("", "ctrld-pkg")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	ctrld, err := universal(p.Ctrld, filepath.Join(work, "ctrld"))
	if err != nil {
		return err
	}
	if ctrld, err = p.codeSign(ctrld, filepath.Join(work, "ctrld.signed"), CtrldCodeIdentifier, true); err != nil {
		return err
	}
	wrapper, err := universal(p.Wrapper, filepath.Join(work, "ctrld-install"))
	if err != nil {
		return err
	}
	if wrapper, err = p.codeSign(wrapper, filepath.Join(work, "ctrld-install.signed"), WrapperCodeIdentifier, false); err != nil {
		return err
	}
	tree, err := payloadTree(p.MTime, map[string]string{p.ctrldName(): ctrld, names.Wrapper: wrapper})
	if err != nil {
		return err
	}
	return p.archive(w, tree, signer)
}

// universal returns the one file given, or merges several thin slices.
func universal(paths []string, out string) (string, error) {
	if len(paths) == 1 {
		return paths[0], nil
	}
	f, err := os.Create(out)
	if err != nil {
		return "", err
	}
	if err := macho.Merge(f, paths...); err != nil {
		f.Close()
		return "", err
	}
	return out, f.Close()
}
