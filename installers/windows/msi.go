// Package windows builds ctrld's MSI with wixl (Debian's msitools) and
// post-patches the tables wixl cannot express. The MSI installs ctrld and
// ctrld-install in Program Files\ControlD and runs ctrld-install as a
// deferred custom action whose failure rolls the install back.
package windows

import (
	"bytes"
	_ "embed"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"text/template"
	"time"
)

//go:embed product.wxs
var productWXS string

var wxsTemplate = template.Must(template.New("product.wxs").Parse(productWXS))

// UpgradeCode identifies the product line forever: every ctrld MSI shares
// it, so MajorUpgrade finds older versions.
const UpgradeCode = "{6A5C1E7B-3F0D-4C29-9B8E-2D7F41C0A9E3}"

// Public properties an admin sets on the msiexec command line.
const (
	PropToken     = "PROVISION_TOKEN"
	PropHostname  = "CUSTOM_HOSTNAME"
	PropIntercept = "INTERCEPT_MODE"
	PropDev       = "USE_DEV_ENVIRONMENT"
)

// Properties lists them; the token is the hidden one.
var Properties = []string{PropToken, PropHostname, PropIntercept, PropDev}

// Custom action type bits (Windows Installer's CustomAction.Type).
const (
	CATypeExeFromFile = 0x12   // 18: an EXE that the package installs
	CAContinue        = 0x40   // Return="ignore"
	CAInScript        = 0x400  // deferred
	CANoImpersonate   = 0x800  // runs as LocalSystem
	CAHideTarget      = 0x2000 // command line kept out of the log
)

// ProvisionType is the provisioning action's full type.
const ProvisionType = CATypeExeFromFile | CAInScript | CANoImpersonate | CAHideTarget

// Package describes the MSI to build.
type Package struct {
	Version string // x.y.z (MSI versions are numeric)
	// Arch is "x64"; wixl 0.101 cannot build arm64 packages.
	Arch           string
	Ctrld, Wrapper string // Windows binaries; Ctrld keeps its file name
	MTime          time.Time
	// Cert and Key (PEM) sign ctrld-install.exe and the MSI with
	// osslsigncode when both are set.
	Cert, Key string
}

// FileName is the conventional output name.
func (p Package) FileName() string { return "ctrld-" + p.Version + "-" + p.Arch + ".msi" }

type wxsVars struct {
	ProductCode, UpgradeCode, Version string
	CtrldGUID, WrapperGUID, DataGUID  string
	Ctrld, CtrldName, Wrapper         string
}

// Build writes the MSI to out.
func (p Package) Build(out string) error {
	if p.Arch != "x64" {
		return fmt.Errorf("msi: arch %q: wixl builds x64 packages only", p.Arch)
	}
	if err := requireTools("wixl", "msibuild", "msiinfo"); err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "ctrld-msi")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	wrapper := p.Wrapper
	if p.signing() {
		if wrapper, err = p.sign(p.Wrapper, filepath.Join(work, "ctrld-install.exe")); err != nil {
			return err
		}
	}
	ids, err := p.codes(wrapper)
	if err != nil {
		return err
	}
	// wixl resolves Source paths against the current folder only, so the
	// binaries are copied in and named relatively. The cabinet records
	// their times: pin them.
	for src, name := range map[string]string{p.Ctrld: "src-ctrld.exe", wrapper: "src-ctrld-install.exe"} {
		dst := filepath.Join(work, name)
		if err := copyFile(src, dst); err != nil {
			return err
		}
		if err := os.Chtimes(dst, p.MTime, p.MTime); err != nil {
			return err
		}
	}
	if err := p.renderWXS(filepath.Join(work, "product.wxs"), ids); err != nil {
		return err
	}
	built := filepath.Join(work, "ctrld.msi")
	if err := p.runIn(work, "wixl", "-a", "x64", "-o", "ctrld.msi", "product.wxs"); err != nil {
		return err
	}
	if err := p.patch(built, ids.PackageCode); err != nil {
		return err
	}
	if p.signing() {
		_, err := p.sign(built, out)
		return err
	}
	return copyFile(built, out)
}

func (p Package) renderWXS(path string, ids msiCodes) error {
	var b bytes.Buffer
	err := wxsTemplate.Execute(&b, wxsVars{
		ProductCode: ids.ProductCode, UpgradeCode: UpgradeCode, Version: p.Version,
		CtrldGUID: ids.Ctrld, WrapperGUID: ids.Wrapper,
		Ctrld: "src-ctrld.exe", CtrldName: filepath.Base(p.Ctrld), Wrapper: "src-ctrld-install.exe",
	})
	if err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// run runs a build tool with SOURCE_DATE_EPOCH set and its output kept for
// the error message.
func (p Package) run(name string, args ...string) error { return p.runIn("", name, args...) }

func (p Package) runIn(dir, name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "SOURCE_DATE_EPOCH="+strconv.FormatInt(p.MTime.Unix(), 10), "TZ=UTC")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s: %v\n%s", name, err, out)
	}
	return nil
}

func copyFile(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o644)
}
