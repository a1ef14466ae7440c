package safefile

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
)

// ErrReplaceable means someone other than root (and the account the
// caller runs as) could replace the file: it, or a directory on the way to
// it, is theirs or open to them.
var ErrReplaceable = errors.New("replaceable by another user")

// Node is what the check needs to know of one path, not following links.
type Node struct {
	Mode fs.FileMode
	UID  uint32
}

// Tree is the file system as the check sees it.
type Tree interface {
	Lstat(path string) (Node, error)
	Readlink(path string) (string, error)
}

// maxLinks bounds the symbolic links followed on the way to the file.
const maxLinks = 32

// installers/linux/scripts/install.sh applies these same rules in sh to
// the folder it installs into: change both together.
//
// CheckReplaceable returns nil when only trusted owners can replace the
// file at the absolute path: the file is a regular file owned by a trusted
// uid and not group- or world-writable, and so is every directory from /
// down to it, except that a sticky directory (like /tmp) may be writable
// when the entry in it is a trusted owner's. Symbolic links are followed,
// and the directories of both the link and its target are checked.
func CheckReplaceable(t Tree, path string, trusted func(uid uint32) bool) error {
	if !filepath.IsAbs(path) {
		return fmt.Errorf("%w: %s is not an absolute path", ErrReplaceable, path)
	}
	for links := 0; ; links++ {
		if links > maxLinks {
			return fmt.Errorf("%w: too many symbolic links on the way to %s", ErrReplaceable, path)
		}
		next, err := walk(t, filepath.Clean(path), trusted)
		if err != nil || next == "" {
			return err
		}
		path = next
	}
}

// walk checks path from / down. At a symbolic link it returns the path to
// walk instead: the link's target joined with what is left.
func walk(t Tree, path string, trusted func(uint32) bool) (string, error) {
	dir, err := t.Lstat("/")
	if err != nil {
		return "", err
	}
	if err := checkDir("/", dir, trusted); err != nil {
		return "", err
	}
	parts := strings.Split(strings.TrimPrefix(path, "/"), "/")
	cur := "/"
	for i, name := range parts {
		at := filepath.Join(cur, name)
		node, err := t.Lstat(at)
		if err != nil {
			return "", err
		}
		if err := checkEntry(cur, dir, at, node, trusted); err != nil {
			return "", err
		}
		last := i == len(parts)-1
		switch {
		case node.Mode&fs.ModeSymlink != 0:
			target, err := t.Readlink(at)
			if err != nil {
				return "", err
			}
			if !filepath.IsAbs(target) {
				target = filepath.Join(cur, target)
			}
			return filepath.Join(append([]string{target}, parts[i+1:]...)...), nil
		case last:
			return "", checkFile(at, node, trusted)
		}
		if err := checkDir(at, node, trusted); err != nil {
			return "", err
		}
		cur, dir = at, node
	}
	return "", nil
}

// checkEntry: can someone untrusted replace the entry at in dir?
func checkEntry(dirPath string, dir Node, at string, entry Node, trusted func(uint32) bool) error {
	if dir.Mode.Perm()&0o022 == 0 {
		return nil
	}
	if dir.Mode&fs.ModeSticky != 0 && trusted(entry.UID) {
		return nil
	}
	return fmt.Errorf("%w: directory %s is group- or world-writable", ErrReplaceable, dirPath)
}

func checkDir(path string, n Node, trusted func(uint32) bool) error {
	if !n.Mode.IsDir() {
		return fmt.Errorf("%w: %s is not a directory", ErrReplaceable, path)
	}
	if !trusted(n.UID) {
		return fmt.Errorf("%w: directory %s is owned by uid %d", ErrReplaceable, path, n.UID)
	}
	return nil
}

func checkFile(path string, n Node, trusted func(uint32) bool) error {
	switch {
	case !n.Mode.IsRegular():
		return fmt.Errorf("%w: %s is not a regular file", ErrReplaceable, path)
	case !trusted(n.UID):
		return fmt.Errorf("%w: %s is owned by uid %d", ErrReplaceable, path, n.UID)
	case n.Mode.Perm()&0o022 != 0:
		return fmt.Errorf("%w: %s is group- or world-writable", ErrReplaceable, path)
	}
	return nil
}
