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
		fmt.Fprintf(bw, "%s: %s\n", in.Label(), in.describe())
	}
	fmt.Fprintf(bw, "\n%s\n\n", t.Summary())
	lines := t.Lines()
	devices, attempts := t.Devices() > 0 || t.Attempts() == 0, t.Attempts() > 0
	tw := tabwriter.NewWriter(bw, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, countHeads(devices, attempts)+"EXIT\tSTAGE\tCODE\tCLASS\tMEANING")
	for _, l := range lines {
		fmt.Fprintf(tw, "%s%d\t%s\t%s\t%s\t%s\n", countCells(l, devices, attempts), l.Exit, dash(l.Stage), l.Code, dash(string(l.Class)), l.Meaning)
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

// countHeads heads the count columns the report has: devices, attempts
// or both.
func countHeads(devices, attempts bool) string {
	var s string
	if devices {
		s += "DEVICES\t"
	}
	if attempts {
		s += "ATTEMPTS\t"
	}
	return s
}

func countCells(l Line, devices, attempts bool) string {
	var s string
	if devices {
		s += fmt.Sprintf("%d\t", l.Devices)
	}
	if attempts {
		s += fmt.Sprintf("%d\t", l.Attempts)
	}
	return s
}

// describe says which column of an input was read.
func (in Input) describe() string {
	switch {
	case in.Format == FormatLines:
		return "read as lines (a log or a list of results)"
	case in.Column == 0:
		return "CSV; no column holds results in the first rows, so each row is searched whole"
	case in.ColumnName != "":
		return fmt.Sprintf("CSV, column %d (%s)", in.Column, in.ColumnName) + in.describeDevices()
	}
	return fmt.Sprintf("CSV, column %d (the column holding result lines)", in.Column) + in.describeDevices()
}

// describeDevices says how the rows of a CSV input are counted.
func (in Input) describeDevices() string {
	switch {
	case in.DeviceColumn == "":
		return "; no column names the device, so each row counts as an attempt"
	case in.TimeColumn == "":
		return "; devices named by " + in.DeviceColumn + ", the row read last is the latest attempt"
	}
	return "; devices named by " + in.DeviceColumn + ", dated by " + in.TimeColumn
}

func dash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "-"
	}
	return s
}
