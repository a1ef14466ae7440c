// Package linux builds ctrld's Linux packages: deb and rpm with the nfpm
// library, and a tar.gz with an install.sh shim. Every maintainer script
// is a shim that hands provisioning to ctrld-install.
package linux

import (
	"fmt"
	"path"
	"path/filepath"
	"time"

	"github.com/ctrld-install/ctrld-install/contract"
)

// Fixed places on the target machine.
const (
	BinDir       = contract.LinuxBinDir
	Home         = contract.Home
	SettingsFile = contract.LinuxSettings
)

// Package describes one Linux package to build. Configuration is data:
// the formats differ only in the packager they hand it to.
type Package struct {
	Name    string // package name, "ctrld"
	Version string
	Arch    string // Go arch: amd64, arm64
	// Ctrld and Wrapper are the Linux binaries to package. The ctrld
	// binary keeps its own name (ctrld or ctrld-client).
	Ctrld, Wrapper string
	// MTime stamps every file; set from SOURCE_DATE_EPOCH for
	// reproducible builds.
	MTime time.Time
	// SigningKey is an armored GPG private key file; empty builds
	// unsigned. The passphrase comes from the environment (see Sign).
	SigningKey string
}

// Metadata every package carries.
const (
	maintainer  = "Control D <support@controld.com>"
	description = "Control D DNS client (ctrld), provisioned by ctrld-install"
	homepage    = "https://github.com/Control-D-Inc/ctrld"
	license     = "MIT"
	vendor      = "Control D"
)

// CtrldName is the name the ctrld binary is installed under.
func (p Package) CtrldName() string { return filepath.Base(p.Ctrld) }

func (p Package) vars(bin string) scriptVars {
	name := p.CtrldName()
	return scriptVars{Bin: bin, Ctrld: name, Wrapper: contract.Wrapper, Home: Home, SettingsFile: SettingsFile, HomeFiles: contract.HomeFiles,
		RunFiles: within(contract.RunDir, contract.CtrldRunFiles(name)), Logs: within(contract.LogDir, contract.CtrldLogs(name))}
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
	return nil
}
