package fleet

import (
	"fmt"
	"strings"

	"github.com/ctrld-install/ctrld-install/internal/codes"
)

// Line is one outcome as every output shows it, taken from the code
// table only.
type Line struct {
	Code       string      `json:"code"`
	Stage      string      `json:"stage"`
	Exit       int         `json:"exit"`
	Devices    int         `json:"devices"`
	Attempts   int         `json:"attempts"`
	Class      codes.Class `json:"class"`
	Meaning    string      `json:"-"`
	NextAction string      `json:"-"`
}

// SuccessCode names success in the outputs.
const SuccessCode = "OK"

const successMeaning = "provisioning complete"

func lineOf(r Row) Line {
	if r.Outcome.OK {
		return Line{Code: SuccessCode, Devices: r.Devices, Attempts: r.Attempts, Meaning: successMeaning, NextAction: "Nothing to do."}
	}
	c := r.Outcome.Code
	a, _ := codes.AdviceFor(c)
	return Line{Code: c.Name, Stage: c.Stage, Exit: c.Exit, Devices: r.Devices, Attempts: r.Attempts, Class: codes.ClassOf(c), Meaning: c.Meaning, NextAction: a.NextAction}
}

// Count is the outcome's devices and attempts together.
func (l Line) Count() int { return l.Devices + l.Attempts }

// Lines lists the outcomes, most results first.
func (t *Tally) Lines() []Line {
	var out []Line
	for _, r := range t.Rows() {
		out = append(out, lineOf(r))
	}
	return out
}

// uncounted is one count of rows that are not results, with what it
// means.
type uncounted struct {
	Label string
	Count int
	Means string
}

func (t *Tally) uncounted() []uncounted {
	return []uncounted{
		{"unreadable rows", t.Unreadable, "no result could be read: garbage, a broken or altered line, a code not in the table, a row too long"},
		{"empty values", t.Empty, "the column is empty: the device has not reported a result"},
		{"other programs' codes", t.OtherCodes, "an exit or error code not in the code table, such as msiexec's 1603"},
		{"log lines without a result", t.OtherLines, "lines of a log or list that hold no result line"},
	}
}

// Summary says in words what was counted: devices, each once by its
// latest attempt, and attempts from inputs that name no device.
func (t *Tally) Summary() string {
	var parts []string
	if t.Devices() > 0 || t.Folded > 0 || t.Attempts() == 0 {
		parts = append(parts, fmt.Sprintf("%d devices with a result (each counted once, by its latest attempt; %d rows folded)", t.Devices(), t.Folded))
	}
	if t.Attempts() > 0 {
		parts = append(parts, fmt.Sprintf("%d attempts with a result from inputs that name no device (a device that tried twice counts twice)", t.Attempts()))
	}
	return strings.Join(parts, "; ")
}
