package fleet

import (
	"github.com/ctrld-install/ctrld-install/wrapper/codes"
)

// Line is one outcome as every output shows it, taken from the code
// table only.
type Line struct {
	Code       string      `json:"code"`
	Stage      string      `json:"stage"`
	Exit       int         `json:"exit"`
	Devices    int         `json:"devices"`
	Class      codes.Class `json:"class"`
	Meaning    string      `json:"-"`
	NextAction string      `json:"-"`
}

// SuccessCode names success in the outputs.
const SuccessCode = "OK"

const successMeaning = "provisioning complete"

func lineOf(r Row) Line {
	if r.Outcome.OK {
		return Line{Code: SuccessCode, Devices: r.Devices, Meaning: successMeaning, NextAction: "Nothing to do."}
	}
	c := r.Outcome.Code
	a, _ := codes.AdviceFor(c)
	return Line{Code: c.Name, Stage: c.Stage, Exit: c.Exit, Devices: r.Devices, Class: codes.ClassOf(c), Meaning: c.Meaning, NextAction: a.NextAction}
}

// Lines lists the outcomes, most devices first.
func (t *Tally) Lines() []Line {
	var out []Line
	for _, r := range t.Rows() {
		out = append(out, lineOf(r))
	}
	return out
}

// uncounted is one count of rows that are not devices with a result,
// with what it means.
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
