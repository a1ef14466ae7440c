package evidence

import (
	"time"

	"github.com/ctrld-install/ctrld-install/internal/codes"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/result"
)

// FromResultFile copies the evidence out of home's result file for the
// outcome o of an attempt that began at began. It answers only when the
// wrapper trusts the file for that attempt (result.Load accepts it), the
// file names o's code and its free text is of ctrld's shape: a stale or
// planted file yields nothing.
func FromResultFile(home string, began time.Time, o codes.Outcome, secrets []string) (Record, bool) {
	if o.OK {
		return Record{}, false
	}
	trusted, err := result.Load(home, began)
	if err != nil || !sameCode(trusted.Code, o.Code) {
		return Record{}, false
	}
	text, err := trusted.FreeText()
	if err != nil {
		return Record{}, false
	}
	ev := Evidence{Message: text.Message, Attempts: text.Attempts}.Clean(secrets)
	return Record{Line: o.Line(), ResultStamp: renderStamp(trusted.Stamp), Evidence: ev}, true
}

// renderStamp writes a stamp the wrapper parsed, never as the file spelled
// it.
func renderStamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func sameCode(a, b codes.Code) bool {
	return a.Stage == b.Stage && a.Name == b.Name && a.Exit == b.Exit
}
