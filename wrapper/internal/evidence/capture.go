package evidence

import (
	"encoding/json"
	"time"

	"github.com/ctrld-install/ctrld-install/wrapper/codes"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/result"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/safefile"
)

// MaxSkew is how far in the future a result file may be stamped and still
// belong to the attempt that just ended (ctrld and the wrapper share one
// clock; this only absorbs rounding).
const MaxSkew = 5 * time.Second

// resultFile is ctrld's provision_result.json, schema version 1.
type resultFile struct {
	Timestamp string `json:"timestamp"`
	Stage     string `json:"stage"`
	Code      string `json:"code"`
	ExitCode  int    `json:"exit_code"`
	Message   string `json:"message"`
	Detail    struct {
		Attempts []Attempt `json:"attempts"`
	} `json:"detail"`
}

// FromResultFile copies the evidence out of home's result file for the
// outcome o of an attempt that began at began. It answers only when the
// wrapper trusts the file for that attempt (result.Read accepts it) and the
// file names o's code, stamped between began and now plus MaxSkew: a
// stale or planted file yields nothing.
func FromResultFile(home string, began time.Time, o codes.Outcome, secrets []string) (Record, bool) {
	if o.OK {
		return Record{}, false
	}
	trusted, err := result.Read(home, began)
	if err != nil || !sameCode(trusted, o.Code) {
		return Record{}, false
	}
	data, err := safefile.Read(resultPath(home), safefile.Options{MaxSize: result.MaxSize, NoLinks: true})
	if err != nil {
		return Record{}, false
	}
	var f resultFile
	if json.Unmarshal(data, &f) != nil {
		return Record{}, false
	}
	stamp, ok := stampWithin(f.Timestamp, began, time.Now().Add(MaxSkew))
	if !ok || f.Stage != o.Code.Stage || f.Code != o.Code.Name || f.ExitCode != o.Code.Exit {
		return Record{}, false
	}
	ev := Evidence{Message: f.Message, Attempts: f.Detail.Attempts}.Clean(secrets)
	return Record{Line: o.Line(), ResultStamp: stamp, Evidence: ev}, true
}

// stampWithin parses an RFC 3339 stamp and checks it lies in
// [notBefore, notAfter] to the second, the precision ctrld writes. The
// stamp is returned re-rendered, never as the file spelled it.
func stampWithin(s string, notBefore, notAfter time.Time) (string, bool) {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil || t.Unix() < notBefore.Unix() || t.Unix() > notAfter.Unix() {
		return "", false
	}
	return t.UTC().Format(time.RFC3339), true
}

func sameCode(a, b codes.Code) bool {
	return a.Stage == b.Stage && a.Name == b.Name && a.Exit == b.Exit
}
