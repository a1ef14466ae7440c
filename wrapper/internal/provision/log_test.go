package provision

import "github.com/ctrld-install/ctrld-install/internal/codes"

// warnings is an OS log for tests: every warning, and each outcome as
// "result: LINE".
type warnings []string

func (w *warnings) Warn(msg string)        { *w = append(*w, msg) }
func (w *warnings) Result(o codes.Outcome) { *w = append(*w, "result: "+o.Line()) }
