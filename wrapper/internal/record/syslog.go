package record

import (
	"github.com/ctrld-install/ctrld-install/internal/codes"
	"github.com/ctrld-install/ctrld-install/internal/names"
)

// SystemLog is the OS's log: syslog or the journal on Linux and macOS, the
// Application event log on Windows. Messages must already be free of the
// token; the wrapper passes only rebuilt lines and redacted warnings.
type SystemLog interface {
	Result(o codes.Outcome)
	Warn(msg string)
	Close()
}

type nopLog struct{}

func (nopLog) Result(codes.Outcome) {}
func (nopLog) Warn(string)          {}
func (nopLog) Close()               {}

// Tag names the wrapper in the OS log; on Windows it is the event source
// the MSI registers.
const Tag = names.Wrapper
