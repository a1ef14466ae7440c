//go:build unix

package record

import (
	"os"
	"runtime"
	"strconv"
	"syscall"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/codes"
)

// socketPaths are where syslog listens on this OS: on Linux journald or
// a syslog daemon, on macOS syslogd, on the BSDs syslogd's usual paths.
// Each miss costs a socket and a connect on every run.
func socketPaths() []string {
	switch runtime.GOOS {
	case "linux":
		return []string{"/dev/log"}
	case "darwin":
		return []string{"/var/run/syslog"}
	}
	return []string{"/var/run/log", "/dev/log"}
}

// Facility and severities of RFC 3164.
const (
	facilityDaemon  = 3 << 3
	severityErr     = 3
	severityWarning = 4
	severityNotice  = 5
)

// unixLog sends datagrams to the local syslog socket in the format
// log/syslog uses for a local daemon. It talks to the socket through
// syscall, not log/syslog, whose net dependency costs every run of the
// wrapper a noticeable share of its start-up. The socket is non-blocking:
// a full syslog queue drops the message instead of stalling the wrapper.
type unixLog struct{ fd int }

// OpenSystemLog connects to syslog. With no syslog daemon the log is
// silently skipped: the line still reaches stdout and the last-result file.
func OpenSystemLog() SystemLog {
	for _, path := range socketPaths() {
		if l, ok := dial(path); ok {
			return l
		}
	}
	return nopLog{}
}

// OpenSystemLogAt connects to the syslog socket at path. It is a debug
// seam for tests, which read what the wrapper logs; the release main uses
// OpenSystemLog.
func OpenSystemLogAt(path string) SystemLog {
	if l, ok := dial(path); ok {
		return l
	}
	return nopLog{}
}

func dial(path string) (unixLog, bool) {
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_DGRAM, 0)
	if err != nil {
		return unixLog{}, false
	}
	syscall.CloseOnExec(fd)
	if err := syscall.SetNonblock(fd, true); err != nil {
		syscall.Close(fd)
		return unixLog{}, false
	}
	if err := syscall.Connect(fd, &syscall.SockaddrUnix{Name: path}); err != nil {
		syscall.Close(fd)
		return unixLog{}, false
	}
	return unixLog{fd}, true
}

func (l unixLog) send(severity int, msg string) {
	b := make([]byte, 0, 64+len(msg))
	b = append(b, '<')
	b = strconv.AppendInt(b, int64(facilityDaemon|severity), 10)
	b = append(b, '>')
	b = time.Now().AppendFormat(b, time.Stamp)
	b = append(b, ' ')
	b = append(b, Tag...)
	b = append(b, '[')
	b = strconv.AppendInt(b, int64(os.Getpid()), 10)
	b = append(b, "]: "...)
	b = append(b, msg...)
	syscall.Write(l.fd, b)
}

func (l unixLog) Result(o codes.Outcome) {
	if o.OK {
		l.send(severityNotice, o.Line())
		return
	}
	l.send(severityErr, o.Line())
}

func (l unixLog) Warn(msg string) { l.send(severityWarning, msg) }
func (l unixLog) Close()          { syscall.Close(l.fd) }
