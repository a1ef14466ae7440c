package fleet

import (
	"encoding/json"
	"io"
)

// jsonReport is the --json shape: one entry per code, success as code OK
// with exit 0, its devices (each once, by its latest attempt) and its
// attempts from inputs that name no device, and the rows that are not
// results.
type jsonReport struct {
	Codes      []Line  `json:"codes"`
	Devices    int     `json:"devices"`
	Attempts   int     `json:"attempts"`
	Folded     int     `json:"folded_rows"`
	Unreadable int     `json:"unreadable"`
	Empty      int     `json:"empty"`
	OtherCodes int     `json:"other_codes"`
	OtherLines int     `json:"other_lines"`
	Inputs     []Input `json:"inputs"`
}

// WriteJSON prints the report for scripts.
func (t *Tally) WriteJSON(w io.Writer) error {
	r := jsonReport{t.Lines(), t.Devices(), t.Attempts(), t.Folded, t.Unreadable, t.Empty, t.OtherCodes, t.OtherLines, t.Inputs}
	if r.Codes == nil {
		r.Codes = []Line{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
