package release

import (
	"fmt"
	"os/exec"
	"sort"
	"strings"
)

// ToolPackages maps every external tool the release build runs to the
// Debian package that provides it: none, the installers are written in Go.
var ToolPackages = map[string]string{}

// signingTools are needed only when signing is configured.
var signingTools = map[string]string{"osslsigncode": "osslsigncode"}

// CheckTools fails fast, before any work, naming the Debian packages to
// install and the command that does it.
func CheckTools(signing Signing) error {
	need := map[string]string{}
	for t, p := range ToolPackages {
		need[t] = p
	}
	if signing.MsiCert != "" {
		for t, p := range signingTools {
			need[t] = p
		}
	}
	var missing, pkgs []string
	seen := map[string]bool{}
	for tool, pkg := range need {
		if _, err := exec.LookPath(tool); err != nil {
			missing = append(missing, tool)
			if !seen[pkg] {
				pkgs, seen[pkg] = append(pkgs, pkg), true
			}
		}
	}
	if len(missing) == 0 {
		return nil
	}
	sort.Strings(missing)
	sort.Strings(pkgs)
	return fmt.Errorf("missing tools: %s (Debian packages: %s); install with: sudo apt-get install -y %s",
		strings.Join(missing, ", "), strings.Join(pkgs, ", "), strings.Join(pkgs, " "))
}
