package safefile

import (
	"errors"
	"path/filepath"

	"github.com/ctrld-install/ctrld-install/wrapper/internal/winacl"
)

// Replaceable checks the file at path on the real file system, trusting
// SYSTEM, Administrators and the account this process runs as (which
// could replace the file itself anyway), and returns the path to run it
// by: Windows resolves ".." in a path before it follows any link.
func Replaceable(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	return abs, CheckReplaceableACL(winacl.OS{}, abs)
}

// ReplaceableFolder is for install.sh, which Windows does not have.
func ReplaceableFolder(string) (string, error) { return "", errors.ErrUnsupported }
