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
// even when it runs the same file. It returns how many processes it
// signalled.
func StopDaemons(procDir, binary string, grace time.Duration) int {
	ours, ok := ourNamespaces(procDir)
	if !ok {
		return 0
	}
	tree := descendants(procDir, matching(procDir, binary, ours), ours)
	for pid := range tree {
		syscall.Kill(pid, syscall.SIGTERM)
	}
	deadline := time.Now().Add(grace)
	for len(alive(procDir, tree)) > 0 && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	for _, pid := range alive(procDir, tree) {
		syscall.Kill(pid, syscall.SIGKILL)
	}
	return len(tree)
}

// matching lists the processes of our namespaces that run binary: the
// very file (device and inode), or, when it was deleted or replaced since
// the process started, the file that was at its path then. The path alone
// is never enough in another mount namespace, where it may name any file.
func matching(procDir, binary string, ours namespaces) map[int]bool {
	target, haveTarget := fileID(binary)
	deleted := resolved(binary) + deletedSuffix
	found := map[int]bool{}
	self := os.Getpid()
	for _, pid := range pids(procDir) {
		if pid == self || !inNamespaces(procDir, pid, ours) {
			continue
		}
		exe := filepath.Join(procDir, strconv.Itoa(pid), "exe")
		if id, ok := fileID(exe); ok && haveTarget && id == target {
			found[pid] = true
			continue
		}
		if link, err := os.Readlink(exe); err == nil && link == deleted {
			found[pid] = true
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
func descendants(procDir string, roots map[int]bool, ours namespaces) map[int]bool {
	parents := map[int]int{}
	for _, pid := range pids(procDir) {
		if ppid, ok := parentOf(procDir, pid); ok {
			parents[pid] = ppid
		}
	}
	tree := map[int]bool{}
	for pid := range roots {
		tree[pid] = true
	}
	for grew := true; grew; {
		grew = false
		for pid, ppid := range parents {
			if tree[ppid] && !tree[pid] && pid != os.Getpid() && inNamespaces(procDir, pid, ours) {
				tree[pid], grew = true, true
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

// alive lists the processes of tree still running; a zombie is gone.
func alive(procDir string, tree map[int]bool) []int {
	var out []int
	for pid := range tree {
		if f := proc.StatFields(procDir, pid); len(f) > 0 && f[0] != "Z" {
			out = append(out, pid)
		}
	}
	return out
}
