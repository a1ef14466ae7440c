// Package fleet reads fleet exports (a Jamf extension-attribute column,
// an Intune device install-status export, install logs, plain lines) and
// counts the devices per provisioning code. Its output is built from the
// code table alone: no byte of an input row ever reaches it.
package fleet

import (
	"sort"

	"github.com/ctrld-install/ctrld-install/wrapper/codes"
)

// Tally is the count of devices per outcome over every input read.
type Tally struct {
	devices map[codes.Outcome]int
	// Unreadable rows name no result that can be read: garbage, a broken
	// or tampered line, a code the table does not have, a row over the
	// size bounds, a row without the chosen column.
	Unreadable int
	// Empty rows hold nothing in the chosen column: no result reported.
	Empty int
	// OtherCodes are exit or error codes outside the table (msiexec's
	// 1603, Intune's own errors).
	OtherCodes int
	// OtherLines are log lines that mention no result.
	OtherLines int
	Inputs     []Input
}

// Input says how one input was read.
type Input struct {
	Name   string `json:"name"`
	Format Format `json:"format"`
	// Column is the 1-based column read in a CSV export, 0 for any.
	Column int `json:"column,omitempty"`
	// ColumnName is that column's header, given only when it is a name
	// this package knows: a header is input too.
	ColumnName string `json:"column_name,omitempty"`
}

// Format is how an input was read.
type Format string

const (
	FormatCSV   Format = "csv"
	FormatLines Format = "lines"
)

// NewTally starts an empty tally.
func NewTally() *Tally { return &Tally{devices: map[codes.Outcome]int{}} }

func (t *Tally) add(o codes.Outcome, r reading) {
	switch r {
	case readOutcome:
		t.devices[o]++
	case readEmpty:
		t.Empty++
	case readOtherCode:
		t.OtherCodes++
	case readNone:
		t.OtherLines++
	default:
		t.Unreadable++
	}
}

// Row is one outcome and its number of devices.
type Row struct {
	Outcome codes.Outcome
	Devices int
}

// Rows lists every outcome seen, most devices first, then by exit.
func (t *Tally) Rows() []Row {
	rows := make([]Row, 0, len(t.devices))
	for o, n := range t.devices {
		rows = append(rows, Row{o, n})
	}
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].Devices != rows[j].Devices {
			return rows[i].Devices > rows[j].Devices
		}
		return rows[i].Outcome.Exit() < rows[j].Outcome.Exit()
	})
	return rows
}

// Devices is the number of devices with a readable result.
func (t *Tally) Devices() int {
	n := 0
	for _, c := range t.devices {
		n += c
	}
	return n
}
