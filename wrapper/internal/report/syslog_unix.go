//go:build unix

package report

import (
	"log/syslog"
	"os"

	"github.com/ctrld-install/ctrld-install/wrapper/codes"
)

// SyslogSocketEnv points the wrapper at another syslog socket; tests use
// it to read what the wrapper logs.
const SyslogSocketEnv = "CTRLD_INSTALL_SYSLOG_SOCKET"

type unixLog struct{ w *syslog.Writer }

// OpenSystemLog connects to syslog. With no syslog daemon the log is
// silently skipped: the line still reaches stdout and the last-result file.
func OpenSystemLog() SystemLog {
	var w *syslog.Writer
	var err error
	if path := os.Getenv(SyslogSocketEnv); path != "" {
		w, err = syslog.Dial("unixgram", path, syslog.LOG_DAEMON|syslog.LOG_INFO, Tag)
	} else {
		w, err = syslog.New(syslog.LOG_DAEMON|syslog.LOG_INFO, Tag)
	}
	if err != nil {
		return nopLog{}
	}
	return unixLog{w}
}

func (l unixLog) Result(o codes.Outcome) {
	if o.OK {
		l.w.Notice(o.Line())
		return
	}
	l.w.Err(o.Line())
}

func (l unixLog) Warn(msg string) { l.w.Warning(msg) }
func (l unixLog) Close()          { l.w.Close() }
