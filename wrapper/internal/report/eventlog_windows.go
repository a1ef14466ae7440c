package report

import (
	"golang.org/x/sys/windows/svc/eventlog"

	"github.com/ctrld-install/ctrld-install/wrapper/internal/codes"
)

// The MSI registers the event source; without it Event Viewer still shows
// the text, with a note that the source is unknown.
type eventLog struct{ l *eventlog.Log }

// Event IDs: the exit code for results, so a filter on ID finds a code.
const warnEventID = 100

// OpenSystemLog opens the Application event log. Windows Installer throws
// away an EXE custom action's stdout, so this is where admins read the line.
func OpenSystemLog() SystemLog {
	l, err := eventlog.Open(Tag)
	if err != nil {
		return nopLog{}
	}
	return eventLog{l}
}

func (e eventLog) Result(o codes.Outcome) {
	if o.OK {
		e.l.Info(1000, o.Line())
		return
	}
	e.l.Error(uint32(1000+o.Exit()), o.Line())
}

func (e eventLog) Warn(msg string) { e.l.Warning(warnEventID, msg) }
func (e eventLog) Close()          { e.l.Close() }
