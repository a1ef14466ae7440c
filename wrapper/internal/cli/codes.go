package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/ctrld-install/ctrld-install/internal/codes"
)

func runCodes(_ System, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("codes")
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
	// tabwriter writes cell by cell; a page-sized buffer sends the table
	// in a few writes and, unlike a buffer holding the whole table, adds
	// few page faults.
	bw := bufio.NewWriterSize(stdout, 4096)
	tw := tabwriter.NewWriter(bw, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "EXIT\tSTAGE\tCODE\tCLASS\tMEANING")
	for _, c := range codes.Table {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\n", c.Exit, c.Stage, c.Name, c.Class, c.Meaning)
	}
	tw.Flush()
	bw.Flush()
	return exitOK
}
