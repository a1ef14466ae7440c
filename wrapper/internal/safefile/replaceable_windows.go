package safefile

import (
	"path/filepath"

	"github.com/ctrld-install/ctrld-install/wrapper/internal/winacl"
)

// Replaceable checks the file at path on the real file system, trusting
// SYSTEM, Administrators and the account this process runs as (which
// could replace the file itself anyway).
func Replaceable(path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	return CheckReplaceableACL(winacl.OS{}, abs)
}
