package fleet

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// WriteText prints the report for people: where each input's results
// were found, the devices per code, what was not counted and why, and
// each code's next action.
func (t *Tally) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	for _, in := range t.Inputs {
		fmt.Fprintf(bw, "%s: %s\n", in.Name, in.describe())
	}
	fmt.Fprintf(bw, "\n%d devices with a result\n\n", t.Devices())
	lines := t.Lines()
	tw := tabwriter.NewWriter(bw, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "DEVICES\tEXIT\tSTAGE\tCODE\tCLASS\tMEANING")
	for _, l := range lines {
		fmt.Fprintf(tw, "%d\t%d\t%s\t%s\t%s\t%s\n", l.Devices, l.Exit, dash(l.Stage), l.Code, dash(string(l.Class)), l.Meaning)
	}
	tw.Flush()
	bw.WriteString("\nNot counted above:\n")
	for _, u := range t.uncounted() {
		fmt.Fprintf(bw, "  %s: %d (%s)\n", u.Label, u.Count, u.Means)
	}
	bw.WriteString("\nNext action:\n")
	for _, l := range lines {
		fmt.Fprintf(bw, "  %s: %s\n", l.Code, l.NextAction)
	}
	return bw.Flush()
}

// describe says which column of an input was read.
func (in Input) describe() string {
	switch {
	case in.Format == FormatLines:
		return "read as lines (a log or a list of results)"
	case in.Column == 0:
		return "CSV; no column holds results in the first rows, so each row is searched whole"
	case in.ColumnName != "":
		return fmt.Sprintf("CSV, column %d (%s)", in.Column, in.ColumnName)
	}
	return fmt.Sprintf("CSV, column %d (the column holding result lines)", in.Column)
}

func dash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "-"
	}
	return s
}
