// Command ctrld-install provisions ctrld for installers: it runs
// `ctrld start`, keeps ctrld's output private, prints exactly one line and
// exits with the provisioning code.
package main

import (
	"os"

	"github.com/ctrld-install/ctrld-install/wrapper/internal/cli"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/platform"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/record"
)

func main() {
	sys := cli.System{OS: platform.Current(), OpenLog: record.OpenSystemLog, Env: os.Environ(), Stdin: os.Stdin}
	os.Exit(cli.Run(sys, os.Args[1:], os.Stdout, os.Stderr))
}
