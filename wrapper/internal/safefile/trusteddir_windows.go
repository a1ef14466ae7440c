package safefile

import (
	"fmt"
	"os"
)

// TrustedDir returns nil when path is a directory and not a reparse
// point (a link, a junction). Who may write in it is its ACL's matter:
// the ctrld home dir on Windows is the install folder, whose ACL is
// Program Files'.
func TrustedDir(path string) error {
	info, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if !info.IsDir() {
		return fmt.Errorf("%w: %s is a link or not a directory", ErrUntrustedDir, path)
	}
	return nil
}
