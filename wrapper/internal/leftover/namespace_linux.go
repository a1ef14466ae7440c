package leftover

import (
	"path/filepath"
	"strconv"

	"github.com/ctrld-install/ctrld-install/wrapper/internal/proc"
)

// fileID stats path, following links (for /proc/<pid>/exe, the file the
// process runs, even when it is deleted or outside our mount namespace):
// a bind mount or another mount namespace can put any file at a path,
// never at a device and inode.
func fileID(path string) (proc.FileID, bool) {
	id, err := proc.FileOf(path)
	return id, err == nil
}

// namespaces is the pid and mount namespace of one process.
type namespaces struct {
	pid, mnt proc.FileID
}

// namespacesOf reads them from /proc/<pid>/ns (pid may be "self"). A
// process whose namespaces cannot be read is never taken for ours.
func namespacesOf(procDir, pid string) (namespaces, bool) {
	dir := filepath.Join(procDir, pid, "ns")
	pidNS, okPid := fileID(filepath.Join(dir, "pid"))
	mntNS, okMnt := fileID(filepath.Join(dir, "mnt"))
	return namespaces{pid: pidNS, mnt: mntNS}, okPid && okMnt
}

func ourNamespaces(procDir string) (namespaces, bool) {
	return namespacesOf(procDir, "self")
}

func inNamespaces(procDir string, pid int, ours namespaces) bool {
	ns, ok := namespacesOf(procDir, strconv.Itoa(pid))
	return ok && ns == ours
}
