//go:build unix

package record

import (
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/codes"
)

func TestSyslogDatagrams(t *testing.T) {
	dir, err := os.MkdirTemp("", "sl") // socket paths are short
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "log.sock")
	conn, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: path, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	log := OpenSystemLogAt(path)
	if _, ok := log.(nopLog); ok {
		t.Fatal("no connection to the socket")
	}
	log.Warn("a warning")
	log.Result(codes.Failure(codes.ListenerBindFailed))
	log.Result(codes.Success)
	log.Close()
	pid := strconv.Itoa(os.Getpid())
	for _, want := range []string{
		`^<28>[A-Z][a-z]{2} [ 0-9]\d \d\d:\d\d:\d\d ctrld-install\[` + pid + `\]: a warning$`,
		`^<27>.* ctrld-install\[` + pid + `\]: provisioning failed: stage=listener code=LISTENER_BIND_FAILED \(exit 41\)$`,
		`^<29>.* ctrld-install\[` + pid + `\]: provisioning complete \(exit 0\)$`,
	} {
		conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		buf := make([]byte, 4096)
		n, err := conn.Read(buf)
		if err != nil {
			t.Fatal(err)
		}
		if !regexp.MustCompile(want).Match(buf[:n]) {
			t.Errorf("datagram %q does not match %s", buf[:n], want)
		}
	}
}

func TestSyslogWithoutDaemon(t *testing.T) {
	if _, ok := OpenSystemLogAt(filepath.Join(t.TempDir(), "none")).(nopLog); !ok {
		t.Fatal("a missing socket must give the silent log")
	}
}

// A syslog daemon that stopped reading must never keep the wrapper
// alive: once its queue is full, messages are dropped, not waited on.
func TestStalledSyslogNeverBlocks(t *testing.T) {
	dir, err := os.MkdirTemp("", "sl")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "stalled.sock")
	conn, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: path, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close() // never read
	log := OpenSystemLogAt(path)
	if _, ok := log.(nopLog); ok {
		t.Fatal("no connection to the socket")
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		msg := string(make([]byte, 2048))
		// Far more than any socket queue holds.
		for i := 0; i < 20000; i++ {
			log.Warn(msg)
		}
		log.Result(codes.Failure(codes.ListenerBindFailed))
		log.Close()
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("logging to a stalled syslog blocked")
	}
}
