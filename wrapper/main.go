// Command ctrld-install provisions ctrld for installers: it runs
// `ctrld start`, keeps ctrld's output private, prints exactly one line and
// exits with the provisioning code.
package main

import (
	"os"

	"github.com/ctrld-install/ctrld-install/wrapper/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
}
