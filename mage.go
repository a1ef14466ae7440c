//go:build ignore

// Zero-install mage: `go run mage.go <target>` builds and runs the
// targets in magefile.go without a mage binary on the machine.
package main

import (
	"fmt"
	"os"

	"github.com/magefile/mage/mage"

	"github.com/ctrld-install/ctrld-install/internal/secretenv"
)

func main() { os.Exit(run()) }

// run hands the signing secrets to the magefile before mage compiles it,
// so that neither go build nor the go env and go version mage runs
// inherits a key path or a password.
func run() int {
	cleanup, err := secretenv.HandOff()
	if err != nil {
		fmt.Fprintln(os.Stderr, "Error:", err)
		return 1
	}
	defer cleanup()
	return mage.Main()
}
