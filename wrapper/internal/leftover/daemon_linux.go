package leftover

import (
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/ctrld-install/ctrld-install/wrapper/internal/proc"
)

// StopDaemons stops every process running binary (the daemon and any
// ctrld command still waiting), with their descendants: a polite signal,
// then a hard kill after grace. procDir is /proc. Only processes in our
// own pid and mount namespaces count: a container's ctrld is not ours,
// even when it runs the same file. Each process is held (proc.Hold) from
// before it is inspected until it is signalled for the last time, so a
// process that reuses the pid of one that exited is never signalled. It
// returns how many processes it signalled.
func StopDaemons(procDir, binary string, grace time.Duration) int {
	ours, ok := ourNamespaces(procDir)
	if !ok {
		return 0
	}
	tree := descendants(procDir, matching(procDir, binary, ours), ours)
	defer release(tree)
	signalAll(tree, syscall.SIGTERM)
	deadline := time.Now().Add(grace)
	for left := grace; running(tree) && left > 0; left = time.Until(deadline) {
		time.Sleep(min(exitPoll, left))
	}
	signalAll(tree, syscall.SIGKILL)
	return len(tree)
}

// exitPoll is how often StopDaemons looks whether its processes exited.
const exitPoll = 100 * time.Millisecond

// held maps a pid to the process found with it.
type held map[int]proc.Held

// hold takes process pid and keeps it only when the process, inspected
// while held, passes check and has not exited since: what check read of
// procDir/<pid> was then that very process.
func hold(pid int, check func() bool) (proc.Held, bool) {
	h, err := proc.Hold(pid)
	if err != nil {
		return nil, false
	}
	if !check() || h.Exited() {
		h.Release()
		return nil, false
	}
	return h, true
}

// matching holds the processes of our namespaces that run binary: the
// very file (device and inode), or, when it was deleted or replaced since
// the process started, the file that was at its path then. The path alone
// is never enough in another mount namespace, where it may name any file.
func matching(procDir, binary string, ours namespaces) held {
	target, haveTarget := fileID(binary)
	deleted := resolved(binary) + deletedSuffix
	found := held{}
	self := os.Getpid()
	for _, pid := range pids(procDir) {
		if pid == self {
			continue
		}
		runsBinary := func() bool {
			if !inNamespaces(procDir, pid, ours) {
				return false
			}
			exe := filepath.Join(procDir, strconv.Itoa(pid), "exe")
			if id, ok := fileID(exe); ok && haveTarget && id == target {
				return true
			}
			link, err := os.Readlink(exe)
			return err == nil && link == deleted
		}
		if h, ok := hold(pid, runsBinary); ok {
			found[pid] = h
		}
	}
	return found
}

// deletedSuffix is how /proc/<pid>/exe reads once its file is gone.
const deletedSuffix = " (deleted)"

func resolved(path string) string {
	if abs, err := filepath.EvalSymlinks(path); err == nil {
		return abs
	}
	return path
}

// descendants adds every descendant of the given processes that shares
// our namespaces.
func descendants(procDir string, tree held, ours namespaces) held {
	parents := map[int]int{}
	for _, pid := range pids(procDir) {
		if ppid, ok := parentOf(procDir, pid); ok {
			parents[pid] = ppid
		}
	}
	self := os.Getpid()
	for grew := true; grew; {
		grew = false
		for pid, ppid := range parents {
			if tree[ppid] == nil || tree[pid] != nil || pid == self {
				continue
			}
			child := func() bool {
				parent, ok := parentOf(procDir, pid)
				return ok && parent == ppid && inNamespaces(procDir, pid, ours)
			}
			if h, ok := hold(pid, child); ok {
				tree[pid], grew = h, true
			}
		}
	}
	return tree
}

func pids(procDir string) []int {
	entries, _ := os.ReadDir(procDir)
	var out []int
	for _, e := range entries {
		if pid, err := strconv.Atoi(e.Name()); err == nil {
			out = append(out, pid)
		}
	}
	return out
}

func parentOf(procDir string, pid int) (int, bool) {
	f := proc.StatFields(procDir, pid)
	if len(f) < 2 {
		return 0, false
	}
	ppid, err := strconv.Atoi(f[1])
	return ppid, err == nil
}

// running reports whether a process of tree has not exited yet.
func running(tree held) bool {
	for _, h := range tree {
		if !h.Exited() {
			return true
		}
	}
	return false
}

// signalAll signals every process of tree that has not exited: through
// its hold, never by a pid alone.
func signalAll(tree held, sig syscall.Signal) {
	for _, h := range tree {
		h.Signal(sig)
	}
}

func release(tree held) {
	for _, h := range tree {
		h.Release()
	}
}
