package leftover

import (
	"os"
	"path/filepath"
)

// RemoveSysvService deletes the init script ctrld installed for service
// name under etc and the /etc/rc?.d links to it. ctrld's own uninstall
// leaves the links even when it finishes.
func RemoveSysvService(etc, name string) {
	script := filepath.Join(etc, "init.d", name)
	links, _ := filepath.Glob(filepath.Join(etc, "rc[0-6S].d", "[SK][0-9][0-9]"+name))
	for _, l := range links {
		if st, err := os.Lstat(l); err == nil && st.Mode()&os.ModeSymlink != 0 {
			os.Remove(l)
		}
	}
	if st, err := os.Lstat(script); err == nil && st.Mode().IsRegular() {
		os.Remove(script)
	}
}
