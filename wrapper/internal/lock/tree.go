package lock

import (
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ctrld-install/ctrld-install/contract"
)

// TreeFileName is the tree marker inside the ctrld home dir.
const TreeFileName = contract.TreeFile

// maxTreeFile bounds what is read of the marker: one decimal id.
const maxTreeFile = 32

// The lock dies with the wrapper, but ctrld's tree may not: a wrapper
// killed with SIGKILL leaves ctrld's children running (and, where there
// is no parent-death signal, ctrld itself). The tree marker names the
// process group of the ctrld a run started; while any process of that
// group lives, a new run must not start another ctrld.

// MarkTree records the process group id of the tree a run just started.
// It is called while holding the lock.
func MarkTree(home string, id int) error {
	return os.WriteFile(filepath.Join(home, TreeFileName), []byte(strconv.Itoa(id)+"\n"), 0o600)
}

// ClearTree removes the marker once the run's tree has been waited for.
func ClearTree(home string) { os.Remove(filepath.Join(home, TreeFileName)) }

// TreeAlive reports whether a process of the group a killed run left in
// the marker still lives. It is called while holding the lock; a marker
// whose group is gone is removed.
func TreeAlive(home string) bool {
	if TreeRunning(home) {
		return true
	}
	os.Remove(filepath.Join(home, TreeFileName))
	return false
}

// TreeRunning is TreeAlive for a check that must change nothing: a stale
// marker stays.
func TreeRunning(home string) bool {
	f, err := os.OpenFile(filepath.Join(home, TreeFileName), os.O_RDONLY|noFollow, 0)
	if err != nil {
		return false
	}
	data, err := io.ReadAll(io.LimitReader(f, maxTreeFile))
	f.Close()
	id, perr := strconv.Atoi(strings.TrimSpace(string(data)))
	return err == nil && perr == nil && id > 1 && groupAlive(id)
}
