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

// CheckReplaceable returns the path to use for the file at the absolute
// path when only trusted owners can replace it: the file is a regular
// file owned by a trusted uid and not group- or world-writable, and so is
// every directory from / down to it, except that a sticky directory (like
// /tmp) may be writable when the entry in it is a trusted owner's.
//
// The path is resolved as the kernel resolves it: symbolic links are
// followed, with the directories of both the link and its target
// checked, and ".." goes up from where the path got to, so after a link
// it leaves the link's target, not the link. The path returned is the
// folder so resolved (no link, no "..") joined with the file's own name:
// run or copy that path, never the one given, whose "link/.." a reader
// cleaning it lexically would take for the folder the link is in.
func CheckReplaceable(t Tree, path string, trusted func(uid uint32) bool) (string, error) {
	dir, name, err := splitFile(path)
	if err != nil {
		return "", err
	}
	folder, err := resolve(t, dir, trusted)
	if err != nil {
		return "", err
	}
	use := filepath.Join(folder.path, name)
	file, err := resolve(t, use, trusted)
	if err != nil {
		return "", err
	}
	return use, checkFile(file.path, file.node, trusted)
}

// CheckFolder is CheckReplaceable for a folder files are put in: it and
// every directory above it are trusted owners' and may be written by no
// one else (a sticky one as an entry of ours would be). It returns the
// folder resolved.
func CheckFolder(t Tree, path string, trusted func(uid uint32) bool) (string, error) {
	if !filepath.IsAbs(path) {
		return "", fmt.Errorf("%w: %s is not an absolute path", ErrReplaceable, path)
	}
	folder, err := resolve(t, path, trusted)
	if err != nil {
		return "", err
	}
	if err := checkDir(folder.path, folder.node, trusted); err != nil {
		return "", err
	}
	return folder.path, checkEntry(folder.path, folder.node, folder.path, Node{UID: 0}, trusted)
}

// splitFile splits an absolute file path at its last slash, without
// cleaning it: "a/link/../f" keeps its "..".
func splitFile(path string) (dir, name string, err error) {
	if !filepath.IsAbs(path) {
		return "", "", fmt.Errorf("%w: %s is not an absolute path", ErrReplaceable, path)
	}
	i := strings.LastIndexByte(path, '/')
	dir, name = path[:i], path[i+1:]
	if name == "" || name == "." || name == ".." {
		return "", "", fmt.Errorf("%w: %s is not a regular file", ErrReplaceable, path)
	}
	if dir == "" {
		dir = "/"
	}
	return dir, name, nil
}

// step is a directory the resolution reached, checked.
type step struct {
	path string
	node Node
}

// resolve walks path from / as the kernel does and returns where it ends,
// with what is there (a directory or a file, never a link). Every entry
// on the way must be one only trusted owners can replace, and every
// directory passed through a trusted owner's.
func resolve(t Tree, path string, trusted func(uint32) bool) (step, error) {
	root, err := t.Lstat("/")
	if err != nil {
		return step{}, err
	}
	if err := checkDir("/", root, trusted); err != nil {
		return step{}, err
	}
	// up holds the directories passed through, for "..".
	up := []step{{"/", root}}
	rest, links := parts(path), 0
	for len(rest) > 0 {
		name := rest[0]
		rest = rest[1:]
		cur := up[len(up)-1]
		switch name {
		case ".":
			continue
		case "..":
			if len(up) > 1 {
				up = up[:len(up)-1]
			}
			continue
		}
		at := filepath.Join(cur.path, name)
		node, err := t.Lstat(at)
		if err != nil {
			return step{}, err
		}
		if err := checkEntry(cur.path, cur.node, at, node, trusted); err != nil {
			return step{}, err
		}
		if node.Mode&fs.ModeSymlink != 0 {
			if links++; links > maxLinks {
				return step{}, fmt.Errorf("%w: too many symbolic links on the way to %s", ErrReplaceable, path)
			}
			target, err := t.Readlink(at)
			if err != nil {
				return step{}, err
			}
			if filepath.IsAbs(target) {
				up = up[:1]
			}
			rest = append(parts(target), rest...)
			continue
		}
		if len(rest) == 0 && !node.Mode.IsDir() {
			return step{at, node}, nil
		}
		if err := checkDir(at, node, trusted); err != nil {
			return step{}, err
		}
		up = append(up, step{at, node})
	}
	return up[len(up)-1], nil
}

// parts are the names of a path, empty ones (of "//" and a leading or
// trailing "/") left out.
func parts(path string) []string {
	var out []string
	for _, p := range strings.Split(path, "/") {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
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
