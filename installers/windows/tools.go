package windows

import (
	"fmt"
	"os/exec"
)

// debianPackage names the Debian package that provides each build tool.
var debianPackage = map[string]string{
	"wixl": "wixl", "msibuild": "msitools", "msiinfo": "msitools",
	"osslsigncode": "osslsigncode", "wine": "wine",
}

// requireTools fails fast, naming the package to install.
func requireTools(names ...string) error {
	for _, n := range names {
		if _, err := exec.LookPath(n); err != nil {
			pkg := debianPackage[n]
			return fmt.Errorf("%s not found: install it with: sudo apt-get install %s", n, pkg)
		}
	}
	return nil
}
