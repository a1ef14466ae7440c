package cli

import (
	"bytes"
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
	// tabwriter writes cell by cell; the table goes out in one write.
	var table bytes.Buffer
	tw := tabwriter.NewWriter(&table, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "EXIT\tSTAGE\tCODE\tMEANING")
	for _, c := range codes.Table {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\n", c.Exit, c.Stage, c.Name, c.Meaning)
	}
	tw.Flush()
	stdout.Write(table.Bytes())
	return exitOK
}
