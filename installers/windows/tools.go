package windows

import (
	"fmt"
	"os/exec"
)

// debianPackage names the Debian package that provides each tool the
// build may run (signing only).
var debianPackage = map[string]string{"osslsigncode": "osslsigncode"}

// requireTools fails fast, naming the package to install.
func requireTools(names ...string) error {
	for _, n := range names {
		if _, err := exec.LookPath(n); err != nil {
			return fmt.Errorf("%s not found: install it with: sudo apt-get install %s", n, debianPackage[n])
		}
	}
	return nil
}
