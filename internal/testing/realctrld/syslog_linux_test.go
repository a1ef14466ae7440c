package realctrld

import (
	"net"
	"os"
	"sync"
)

// syslogReceiver is the namespace's syslog: a datagram socket bound at
// /dev/log that keeps every message.
type syslogReceiver struct {
	conn *net.UnixConn
	mu   sync.Mutex
	msgs []string
}

func listenSyslog(path string) (*syslogReceiver, error) {
	os.Remove(path)
	conn, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: path, Net: "unixgram"})
	if err != nil {
		return nil, err
	}
	os.Chmod(path, 0o666)
	r := &syslogReceiver{conn: conn}
	go r.receive()
	return r, nil
}

func (r *syslogReceiver) receive() {
	buf := make([]byte, 64<<10)
	for {
		n, _, err := r.conn.ReadFromUnix(buf)
		if err != nil {
			return
		}
		r.mu.Lock()
		r.msgs = append(r.msgs, string(buf[:n]))
		r.mu.Unlock()
	}
}

// messages returns what arrived so far.
func (r *syslogReceiver) messages() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.msgs...)
}
