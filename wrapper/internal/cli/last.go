package cli

import (
	"fmt"
	"io"

	"github.com/ctrld-install/ctrld-install/wrapper/internal/record"
)

// runLast prints the last recorded line, for a Jamf extension attribute or
// an Intune detection script. With no valid record it prints nothing and
// exits 1.
func runLast(sys System, args []string, stdout, stderr io.Writer) int {
	cfg, exit, done := locate("last", sys, args, stdout, stderr)
	if done {
		return exit
	}
	o, ok := record.ReadLast(cfg.RecordDir)
	if !ok {
		return exitNone
	}
	fmt.Fprintln(stdout, o.Line())
	return exitOK
}
