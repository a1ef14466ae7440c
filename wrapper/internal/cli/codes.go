package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/ctrld-install/ctrld-install/wrapper/codes"
)

func runCodes(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("codes", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print the table as JSON")
	if exit, done := parseOrExplain(fs, args, stdout, stderr); done {
		return exit
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(codes.Table)
		return exitOK
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "EXIT\tSTAGE\tCODE\tMEANING")
	for _, c := range codes.Table {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\n", c.Exit, c.Stage, c.Name, c.Meaning)
	}
	tw.Flush()
	return exitOK
}
