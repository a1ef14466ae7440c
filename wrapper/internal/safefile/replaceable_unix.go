//go:build unix

package safefile

import (
	"os"
	"path/filepath"
	"syscall"
)

// Replaceable checks the file at path on the real file system, trusting
// root and the account this process runs as (which could replace the
// file itself anyway), and returns the path to run it by (see
// CheckReplaceable). A relative path starts at the working directory.
func Replaceable(path string) (string, error) {
	if !filepath.IsAbs(path) {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		// Joined, not cleaned: a "link/.." must reach the check as given.
		path = wd + "/" + path
	}
	return CheckReplaceable(osTree{}, path, trustedHere)
}

// ReplaceableFolder is Replaceable for a folder files will be put in, at
// an absolute path (see CheckFolder).
func ReplaceableFolder(path string) (string, error) {
	return CheckFolder(osTree{}, path, trustedHere)
}

// trustedHere: root, and the account this process runs as.
func trustedHere(uid uint32) bool { return uid == 0 || uid == uint32(os.Geteuid()) }

type osTree struct{}

func (osTree) Lstat(path string) (Node, error) {
	info, err := os.Lstat(path)
	if err != nil {
		return Node{}, err
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return Node{}, syscall.EINVAL
	}
	return Node{Mode: info.Mode(), UID: st.Uid}, nil
}

func (osTree) Readlink(path string) (string, error) { return os.Readlink(path) }
