package cli

import (
	"flag"
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
	fs := flag.NewFlagSet("last", flag.ContinueOnError)
	fs.StringVar(&f.home, "home", "", "ctrld home dir (default: /etc/controld; Windows: the record lives under ProgramData)")
	fs.StringVar(&f.ctrld, "ctrld", "", "the ctrld binary, which places the home dir on Windows")
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
