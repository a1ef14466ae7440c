package record

import (
	"golang.org/x/sys/windows/svc/eventlog"

	"github.com/ctrld-install/ctrld-install/internal/codes"
)

// The MSI registers the event source; without it Event Viewer still shows
// the text, with a note that the source is unknown.
type eventLog struct{ l *eventlog.Log }

// Event IDs stay within 1-1000, the range EventCreate.exe (the message
// file the MSI registers) describes: a failure's ID is its exit code, so a
// filter on the ID finds a code.
const (
	successEventID = 100
	warnEventID    = 200
)

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
		e.l.Info(successEventID, o.Line())
		return
	}
	e.l.Error(uint32(o.Exit()), o.Line())
}

func (e eventLog) Warn(msg string) { e.l.Warning(warnEventID, msg) }
func (e eventLog) Close()          { e.l.Close() }
