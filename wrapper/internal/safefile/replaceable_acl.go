package safefile

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ctrld-install/ctrld-install/wrapper/internal/winacl"
)

// ACLs is the file system as the Windows check sees it: owner, DACL and
// kind of one path, read without following a reparse point.
type ACLs interface {
	Inspect(path string) (winacl.Folder, error)
	// Self is the SID of the account the process runs as.
	Self() (string, error)
}

// CheckReplaceableACL is CheckReplaceable for Windows: it returns nil when
// only SYSTEM, Administrators and the account the caller runs as can
// replace the file at path, a full path on a drive (C:\...). The file and
// the folder holding it may be written by no one else (a file added
// there is a DLL ctrld may load); every folder above may give no one else
// a right to replace what it holds, or itself. No reparse point may lie
// on the way.
func CheckReplaceableACL(fsys ACLs, path string) error {
	root, names, ok := splitDrivePath(path)
	if !ok {
		return fmt.Errorf("%w: %s is not a full path on a drive", ErrReplaceable, path)
	}
	self, err := fsys.Self()
	if err != nil {
		return err
	}
	at := root
	for i := -1; i < len(names); i++ {
		if i >= 0 {
			at = strings.TrimSuffix(at, `\`) + `\` + names[i]
		}
		f, err := fsys.Inspect(at)
		if err != nil {
			return err
		}
		if err := checkACLNode(at, f, self, len(names)-1-i); err != nil {
			return err
		}
	}
	return nil
}

// checkACLNode judges one step; below counts the steps still to come (0:
// the file, 1: its folder).
func checkACLNode(at string, f winacl.Folder, self string, below int) error {
	rights := uint32(winacl.ReplaceRights)
	switch {
	case f.Reparse:
		return fmt.Errorf("%w: %s is a reparse point (junction or link)", ErrReplaceable, at)
	case below == 0 && f.Directory:
		return fmt.Errorf("%w: %s is not a regular file", ErrReplaceable, at)
	case below > 0 && !f.Directory:
		return fmt.Errorf("%w: %s is not a directory", ErrReplaceable, at)
	case below <= 1:
		rights = winacl.WriteRights
	}
	// An inherit-only entry reaches what is created later, not f; what
	// exists is judged on its own entries.
	f.DACL = slices.DeleteFunc(slices.Clone(f.DACL), func(e winacl.Entry) bool { return e.InheritOnly })
	if err := winacl.Controlled(f, self, rights); err != nil {
		return fmt.Errorf("%w: %s %w", ErrReplaceable, at, err)
	}
	return nil
}

// splitDrivePath splits C:\a\b into C:\ and [a b].
func splitDrivePath(path string) (root string, names []string, ok bool) {
	if len(path) < 4 || path[1] != ':' || path[2] != '\\' || !isLetter(path[0]) {
		return "", nil, false
	}
	names = strings.Split(path[3:], `\`)
	for _, n := range names {
		if n == "" || n == "." || n == ".." {
			return "", nil, false
		}
	}
	return path[:3], names, true
}

func isLetter(c byte) bool { return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' }
