//go:build unix

package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

type fakeTree struct {
	nodes map[string]Node
	links map[string]string
}

func (f fakeTree) Lstat(p string) (Node, error) {
	if n, ok := f.nodes[p]; ok {
		return n, nil
	}
	return Node{}, fs.ErrNotExist
}

func (f fakeTree) Readlink(p string) (string, error) { return f.links[p], nil }

const (
	dir      = fs.ModeDir | 0o755
	exe      = 0o755
	link     = fs.ModeSymlink | 0o777
	brewUser = 501
)

// mac is an Intel Mac with Homebrew: /usr/local/bin is the user's.
func mac() fakeTree {
	return fakeTree{nodes: map[string]Node{
		"/":                          {Mode: dir},
		"/usr":                       {Mode: dir},
		"/usr/local":                 {Mode: dir},
		"/usr/local/bin":             {Mode: fs.ModeDir | 0o775, UID: brewUser},
		"/usr/local/bin/ctrld":       {Mode: exe},
		"/usr/local/bin/link":        {Mode: link},
		"/Library":                   {Mode: dir},
		"/Library/ControlD":          {Mode: dir},
		"/Library/ControlD/ctrld":    {Mode: exe},
		"/Library/ControlD/writable": {Mode: 0o775},
		"/Library/ControlD/brew":     {Mode: exe, UID: brewUser},
		"/Library/ControlD/up":       {Mode: link},
		"/tmp":                       {Mode: fs.ModeDir | fs.ModeSticky | 0o777},
		"/Applications":              {Mode: fs.ModeDir | 0o775},
		"/Applications/ctrld":        {Mode: exe},
		"/tmp/ctrld":                 {Mode: exe},
		"/tmp/theirs":                {Mode: exe, UID: brewUser},
		"/tmp/d":                     {Mode: dir},
		"/tmp/d/ctrld":               {Mode: exe},
	}, links: map[string]string{
		"/usr/local/bin/link":  "/Library/ControlD/ctrld",
		"/Library/ControlD/up": "../../usr/local/bin/ctrld",
	}}
}

func rootOnly(uid uint32) bool { return uid == 0 }

func TestCheckReplaceable(t *testing.T) {
	for path, why := range map[string]string{
		"/Library/ControlD/ctrld":    "",
		"/tmp/ctrld":                 "",
		"/tmp/d/ctrld":               "",
		"/usr/local/bin/ctrld":       "directory /usr/local/bin is owned by uid 501",
		"/usr/local/bin/link":        "directory /usr/local/bin is owned by uid 501",
		"/Applications/ctrld":        "directory /Applications is group- or world-writable",
		"/Library/ControlD/writable": "/Library/ControlD/writable is group- or world-writable",
		"/Library/ControlD/brew":     "/Library/ControlD/brew is owned by uid 501",
		"/Library/ControlD/up":       "directory /usr/local/bin is owned by uid 501",
		"/tmp/theirs":                "directory /tmp is group- or world-writable",
		"/Library/ControlD":          "/Library/ControlD is not a regular file",
		"Library/ControlD/ctrld":     "is not an absolute path",
	} {
		_, err := CheckReplaceable(mac(), path, rootOnly)
		wantRefusal(t, path, err, why)
	}
}

func TestCheckReplaceableOwnerOfADirectory(t *testing.T) {
	tree := mac()
	tree.nodes["/usr/local/bin"] = Node{Mode: dir, UID: brewUser}
	_, err := CheckReplaceable(tree, "/usr/local/bin/ctrld", rootOnly)
	if !errors.Is(err, ErrReplaceable) || !strings.Contains(err.Error(), "owned by uid 501") {
		t.Fatalf("got %v", err)
	}
	trustBrew := func(uid uint32) bool { return uid == 0 || uid == brewUser }
	if _, err := CheckReplaceable(tree, "/usr/local/bin/ctrld", trustBrew); err != nil {
		t.Fatalf("the account itself is trusted: %v", err)
	}
}

func TestCheckReplaceableLinkLoop(t *testing.T) {
	tree := mac()
	tree.nodes["/tmp/d/a"], tree.nodes["/tmp/d/b"] = Node{Mode: link}, Node{Mode: link}
	tree.links["/tmp/d/a"], tree.links["/tmp/d/b"] = "b", "a"
	if _, err := CheckReplaceable(tree, "/tmp/d/a", rootOnly); !errors.Is(err, ErrReplaceable) {
		t.Fatalf("got %v", err)
	}
}

// On the real file system: a file chowned to another user is refused.
func TestReplaceableOnDisk(t *testing.T) {
	d := t.TempDir()
	path := filepath.Join(d, "ctrld")
	os.WriteFile(path, []byte("#!/bin/sh\n"), 0o755)
	if _, err := Replaceable(path); err != nil {
		t.Fatalf("own file in own temp dir: %v", err)
	}
	os.Chmod(path, 0o775)
	if _, err := Replaceable(path); !errors.Is(err, ErrReplaceable) {
		t.Fatalf("group-writable: %v", err)
	}
	os.Chmod(path, 0o755)
	testenv.RequireRoot(t, "making a file owned by another user")
	if err := os.Chown(path, brewUser, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := Replaceable(path); !errors.Is(err, ErrReplaceable) {
		t.Fatalf("owned by uid %d: %v", brewUser, err)
	}
}

// After a link, ".." leaves the link's target, as the kernel resolves it:
// /Library/ControlD/home is root's link into a user's folder, so
// home/../ctrld is the user's file, whatever the cleaned path says.
func TestCheckReplaceableResolvesDotDotAfterALink(t *testing.T) {
	tree := mac()
	tree.nodes["/Users"] = Node{Mode: dir}
	tree.nodes["/Users/u"] = Node{Mode: dir, UID: brewUser}
	tree.nodes["/Users/u/sub"] = Node{Mode: dir, UID: brewUser}
	tree.nodes["/Users/u/ctrld"] = Node{Mode: exe, UID: brewUser}
	tree.nodes["/Library/ControlD/home"] = Node{Mode: link}
	tree.links["/Library/ControlD/home"] = "/Users/u/sub"
	tree.nodes["/Library/ControlD/rel"] = Node{Mode: link}
	tree.links["/Library/ControlD/rel"] = "../../Users/u/sub"
	for _, path := range []string{"/Library/ControlD/home/../ctrld", "/Library/ControlD/rel/../ctrld"} {
		_, err := CheckReplaceable(tree, path, rootOnly)
		wantRefusal(t, path, err, "directory /Users/u is owned by uid 501")
	}
	// The trusted way round: a root link to a root folder, then "..".
	tree.nodes["/Library/ControlD/lib"] = Node{Mode: link}
	tree.links["/Library/ControlD/lib"] = "/tmp/d"
	use, err := CheckReplaceable(tree, "/Library/ControlD/lib/../ctrld", rootOnly)
	if err != nil || use != "/tmp/ctrld" {
		t.Fatalf("got %q, %v; want /tmp/ctrld, the file the kernel runs", use, err)
	}
}

// The path to use keeps the file's own name and has its folder resolved.
func TestCheckReplaceableReturnsTheResolvedFolder(t *testing.T) {
	tree := mac()
	for path, want := range map[string]string{
		"/Library/ControlD/ctrld":             "/Library/ControlD/ctrld",
		"/Library//ControlD/./ctrld":          "/Library/ControlD/ctrld",
		"/tmp/d/../../Library/ControlD/ctrld": "/Library/ControlD/ctrld",
	} {
		if use, err := CheckReplaceable(tree, path, rootOnly); err != nil || use != want {
			t.Errorf("%s: got %q, %v; want %q", path, use, err, want)
		}
	}
}

// A folder files go in: a sticky one (/tmp) keeps what root puts in it
// from other users.
func TestCheckFolder(t *testing.T) {
	tree := mac()
	tree.nodes["/opt"] = Node{Mode: dir}
	tree.nodes["/opt/link"] = Node{Mode: link}
	tree.links["/opt/link"] = "/usr/local/bin"
	tree.nodes["/opt/ok"] = Node{Mode: link}
	tree.links["/opt/ok"] = "/Library/ControlD"
	for path, why := range map[string]string{
		"/Library/ControlD":           "",
		"/opt/ok":                     "",
		"/tmp":                        "",
		"/Applications":               "directory /Applications is group- or world-writable",
		"/usr/local/bin":              "directory /usr/local/bin is owned by uid 501",
		"/opt/link":                   "directory /usr/local/bin is owned by uid 501",
		"/opt/ok/../../usr/local/bin": "directory /usr/local/bin is owned by uid 501",
		"/Library/ControlD/ctrld":     "/Library/ControlD/ctrld is not a directory",
		"opt":                         "is not an absolute path",
	} {
		_, err := CheckFolder(tree, path, rootOnly)
		wantRefusal(t, path, err, why)
	}
	if use, err := CheckFolder(tree, "/opt/ok", rootOnly); err != nil || use != "/Library/ControlD" {
		t.Fatalf("got %q, %v", use, err)
	}
}
