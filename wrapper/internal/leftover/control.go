package leftover

import (
	"net"
	"path/filepath"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/names"
)

// ControlAnswers reports whether ctrld's daemon for service name accepts
// a connection on its control socket under runDir within wait. A daemon
// that booted offline never opens the socket, and every ctrld command
// that needs it (stop, restart, uninstall) then waits minutes for it.
func ControlAnswers(runDir, name string, wait time.Duration) bool {
	c, err := net.DialTimeout("unix", filepath.Join(runDir, names.CtrldControlSocket(name)), wait)
	if err != nil {
		return false
	}
	c.Close()
	return true
}
