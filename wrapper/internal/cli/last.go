package cli

import (
	"fmt"
	"io"

	"github.com/ctrld-install/ctrld-install/wrapper/internal/platform"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/report"
)

// runLast prints the last recorded line, for a Jamf extension attribute or
// an Intune detection script. With no valid record it prints nothing and
// exits 1.
func runLast(args []string, stdout, stderr io.Writer) int {
	var f startFlags
	fs := locationFlags("last", &f)
	if exit, done := parseOrExplain(fs, args, stdout, stderr); done {
		return exit
	}
	osys := platform.Current()
	o, ok := report.ReadLast(osys.LastResultDir(f.homeOrDefault(osys)))
	if !ok {
		return exitNone
	}
	fmt.Fprintln(stdout, o.Line())
	return exitOK
}
