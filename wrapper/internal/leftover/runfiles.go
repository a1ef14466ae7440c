package leftover

import (
	"os"
	"path/filepath"

	"github.com/ctrld-install/ctrld-install/internal/names"
)

// RemoveRunFiles deletes the sockets and pid file the ctrld of service
// name keeps in runDir (/run), once its daemon is stopped: a failed or
// killed start leaves its start socket, an uninstall the control socket.
// Only sockets and regular files are removed, never a folder or a link.
func RemoveRunFiles(runDir, name string) {
	for _, f := range names.CtrldRunFiles(name) {
		path := filepath.Join(runDir, f)
		st, err := os.Lstat(path)
		if err == nil && (st.Mode().IsRegular() || st.Mode()&os.ModeSocket != 0) {
			os.Remove(path)
		}
	}
}
