package lock

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/proc"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/safefile"
)

// TreeFileName is the tree marker inside the ctrld home dir.
const TreeFileName = names.TreeFile

// maxTreeFile bounds what is read of the marker: one line of numbers and
// a boot id.
const maxTreeFile = 256

// The lock dies with the wrapper, but ctrld's tree may not: a wrapper
// killed with SIGKILL leaves ctrld's children running (and, where there
// is no parent-death signal, ctrld itself). The tree marker names the
// process group of the ctrld a run started; while ctrld's own processes
// in that group live, a new run must not start another ctrld.
//
// A group id alone is not enough: once the tree is gone, any local user
// can wait for the id to come round and make a group of it. So the marker
// also holds the boot, the leader's start time and the ctrld binary's
// file, and only a process of that group that runs that file as root (or
// as this account) counts.

// marker is what the tree marker records.
type marker struct {
	group int
	start uint64
	boot  string
	exe   proc.FileID
}

const markerFormat = "group=%d start=%d boot=%s dev=%d ino=%d\n"

func (m marker) encode() []byte {
	return fmt.Appendf(nil, markerFormat, m.group, m.start, m.boot, m.exe.Dev, m.exe.Ino)
}

// parseMarker accepts exactly what encode writes.
func parseMarker(data []byte) (marker, bool) {
	var m marker
	_, err := fmt.Sscanf(string(data), markerFormat, &m.group, &m.start, &m.boot, &m.exe.Dev, &m.exe.Ino)
	ok := err == nil && m.group > 1 && m.exe.Ino != 0 && bytes.Equal(m.encode(), data)
	return m, ok
}

// alive reports whether the marked tree still runs: the same boot; the
// leader, if it still lives, the one that was marked; and some process of
// the group, not a zombie, running the marked file as a trusted user.
func (m marker) alive() bool {
	if boot, err := proc.Boot(); err != nil || boot != m.boot {
		return false
	}
	if leader, err := proc.Lookup(m.group); err == nil && leader.Start != m.start {
		return false
	}
	self := uint32(os.Getuid())
	return slices.ContainsFunc(proc.Group(m.group), func(p proc.Facts) bool {
		return !p.Zombie && (p.UID == 0 || p.UID == self) && p.Exe == m.exe
	})
}

// errExiting refuses a marker once the wrapper has cleared its markers to
// exit at once.
var errExiting = errors.New("the wrapper is exiting")

// marked holds the homes whose marker this process wrote, so that an exit
// at once can clear them (and only them: another run's marker stays).
var marked = struct {
	sync.Mutex
	homes   map[string]bool
	exiting bool
}{homes: map[string]bool{}}

// MarkTree records the tree a run just started: pid is its leader, which
// runs the binary at ctrld. It is called while holding the lock. On
// Windows it writes nothing (errors.ErrUnsupported): the tree is in a
// job object that dies with the wrapper.
func MarkTree(home string, pid int, ctrld string) error {
	leader, err := proc.Lookup(pid)
	if err != nil {
		return err
	}
	boot, err := proc.Boot()
	if err != nil {
		return err
	}
	exe, err := proc.FileOf(ctrld)
	if err != nil {
		return err
	}
	return writeMarker(home, marker{group: pid, start: leader.Start, boot: boot, exe: exe})
}

// writeMarker replaces whatever is at the marker's path (a link is
// removed, never followed) with a new file.
func writeMarker(home string, m marker) error {
	marked.Lock()
	defer marked.Unlock()
	if marked.exiting {
		return errExiting
	}
	path := filepath.Join(home, TreeFileName)
	os.Remove(path)
	f, err := safefile.CreateNew(path, 0o600)
	if err != nil {
		return err
	}
	marked.homes[home] = true
	_, err = f.Write(m.encode())
	return errors.Join(err, f.Close())
}

// ClearTree removes the marker once the run's tree has been waited for.
// Removing a link removes the link itself.
func ClearTree(home string) {
	marked.Lock()
	defer marked.Unlock()
	os.Remove(filepath.Join(home, TreeFileName))
	delete(marked.homes, home)
}

// ClearOwnTrees removes every marker this process wrote, and lets it
// write no more: for a wrapper that exits at once, after it killed its
// trees.
func ClearOwnTrees() {
	marked.Lock()
	defer marked.Unlock()
	marked.exiting = true
	for home := range marked.homes {
		os.Remove(filepath.Join(home, TreeFileName))
	}
	clear(marked.homes)
}

// TreeAlive reports whether the tree a killed run left in the marker
// still lives. It is called while holding the lock. A marker that is
// stale, unreadable, malformed or not a regular file (a link is not
// followed) is removed.
func TreeAlive(home string) bool {
	if TreeRunning(home) {
		return true
	}
	ClearTree(home)
	return false
}

// TreeRunning is TreeAlive for a check that must change nothing: a stale
// marker stays.
func TreeRunning(home string) bool {
	data, err := safefile.Read(filepath.Join(home, TreeFileName), safefile.Options{MaxSize: maxTreeFile, NoLinks: true})
	if err != nil {
		return false
	}
	m, ok := parseMarker(data)
	return ok && m.alive()
}
