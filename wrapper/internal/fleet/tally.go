// Package fleet reads fleet exports (a Jamf extension-attribute column,
// an Intune device install-status export, install logs, plain lines) and
// counts the results per provisioning code: devices, where an input names
// them, each once by its latest attempt; attempts where it does not. Its
// output is built from the code table alone: no byte of an input row, and
// no input's name, ever reaches it.
package fleet

import (
	"fmt"
	"hash/maphash"
	"sort"

	"github.com/ctrld-install/ctrld-install/internal/codes"
)

// Tally is the count of devices and attempts per outcome over every
// input read.
type Tally struct {
	// devices counts named devices by their latest attempt; attempts
	// counts the results of inputs that name no device.
	devices, attempts map[codes.Outcome]int
	seen              map[uint64]attempt
	seed              maphash.Seed
	// layout is the time layout that read the last time; lower is the
	// buffer a device's name is folded to lower case in.
	layout int
	lower  []byte
	// Folded rows named a device another row had named already: each
	// device counts once, by its latest attempt.
	Folded int
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

// Input says how one input was read. Inputs are known by their place
// on the command line: a file's name is input too, and may be anything.
type Input struct {
	Number int    `json:"input"`
	Format Format `json:"format"`
	// Column is the 1-based column read in a CSV export, 0 for any.
	Column int `json:"column,omitempty"`
	// ColumnName is that column's header, given only when it is a name
	// this package knows: a header is input too.
	ColumnName string `json:"column_name,omitempty"`
	// DeviceColumn is the known header of the column that names the
	// device, empty when the input names none; TimeColumn dates a row.
	DeviceColumn string `json:"device_column,omitempty"`
	TimeColumn   string `json:"time_column,omitempty"`
}

// Label names the input in the outputs.
func (in Input) Label() string { return fmt.Sprintf("input %d", in.Number) }

// Format is how an input was read.
type Format string

const (
	FormatCSV   Format = "csv"
	FormatLines Format = "lines"
)

// NewTally starts an empty tally.
func NewTally() *Tally {
	return &Tally{devices: map[codes.Outcome]int{}, attempts: map[codes.Outcome]int{}, seen: map[uint64]attempt{}, seed: maphash.MakeSeed()}
}

// add counts a row or line that names no device.
func (t *Tally) add(o codes.Outcome, r reading) { t.count(o, r, false, 1) }

func (t *Tally) count(o codes.Outcome, r reading, named bool, n int) {
	switch {
	case r == readOutcome && named:
		t.devices[o] += n
	case r == readOutcome:
		t.attempts[o] += n
	case r == readEmpty:
		t.Empty += n
	case r == readOtherCode:
		t.OtherCodes += n
	case r == readNone:
		t.OtherLines += n
	default:
		t.Unreadable += n
	}
}

// Row is one outcome, its number of devices and its number of attempts
// from inputs that name no device.
type Row struct {
	Outcome  codes.Outcome
	Devices  int
	Attempts int
}

// Rows lists every outcome seen, most results first, then by exit.
func (t *Tally) Rows() []Row {
	byOutcome := map[codes.Outcome]*Row{}
	row := func(o codes.Outcome) *Row {
		if byOutcome[o] == nil {
			byOutcome[o] = &Row{Outcome: o}
		}
		return byOutcome[o]
	}
	for o, n := range t.devices {
		if n > 0 {
			row(o).Devices = n
		}
	}
	for o, n := range t.attempts {
		row(o).Attempts = n
	}
	rows := make([]Row, 0, len(byOutcome))
	for _, r := range byOutcome {
		rows = append(rows, *r)
	}
	sort.Slice(rows, func(i, j int) bool {
		if a, b := rows[i].Devices+rows[i].Attempts, rows[j].Devices+rows[j].Attempts; a != b {
			return a > b
		}
		return rows[i].Outcome.Exit() < rows[j].Outcome.Exit()
	})
	return rows
}

// Devices is the number of named devices with a readable result.
func (t *Tally) Devices() int { return sum(t.devices) }

// Attempts is the number of readable results from inputs that name no
// device.
func (t *Tally) Attempts() int { return sum(t.attempts) }

func sum(m map[codes.Outcome]int) int {
	n := 0
	for _, c := range m {
		n += c
	}
	return n
}
