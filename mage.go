//go:build ignore

// Zero-install mage: `go run mage.go <target>` builds and runs the
// targets in magefile.go without a mage binary on the machine.
package main

import (
	"os"

	"github.com/magefile/mage/mage"
)

func main() { os.Exit(mage.Main()) }
