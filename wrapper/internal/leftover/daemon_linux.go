package leftover

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/ctrld-install/ctrld-install/wrapper/internal/proc"
)

// StopDaemons stops every process running binary (the daemon and any
// ctrld command still waiting), with their descendants: a polite signal,
// then a hard kill after grace. procDir is /proc. It returns how many
// processes it signalled.
func StopDaemons(procDir, binary string, grace time.Duration) int {
	target := resolved(binary)
	tree := descendants(procDir, matching(procDir, target))
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

func resolved(path string) string {
	if abs, err := filepath.EvalSymlinks(path); err == nil {
		return abs
	}
	return path
}

// matching lists the processes whose executable is target. A binary
// replaced or deleted since it started reads as "target (deleted)".
func matching(procDir, target string) map[int]bool {
	found := map[int]bool{}
	self := os.Getpid()
	for _, pid := range pids(procDir) {
		if pid == self {
			continue
		}
		exe, err := os.Readlink(filepath.Join(procDir, strconv.Itoa(pid), "exe"))
		if err != nil {
			continue
		}
		if strings.TrimSuffix(exe, " (deleted)") == target {
			found[pid] = true
		}
	}
	return found
}

// descendants adds every descendant of the given processes.
func descendants(procDir string, roots map[int]bool) map[int]bool {
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
			if tree[ppid] && !tree[pid] && pid != os.Getpid() {
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

// stat returns the fields after the command name in /proc/<pid>/stat.
func stat(procDir string, pid int) []string { return proc.StatFields(procDir, pid) }

func parentOf(procDir string, pid int) (int, bool) {
	f := stat(procDir, pid)
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
		if f := stat(procDir, pid); len(f) > 0 && f[0] != "Z" {
			out = append(out, pid)
		}
	}
	return out
}
