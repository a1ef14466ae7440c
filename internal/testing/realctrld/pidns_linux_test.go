package realctrld

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"time"
)

// heldNamespace keeps a scenario's pid namespace open on the host. The
// kernel reuses a namespace's inode number once the namespace is gone, so
// scenarios running in parallel could otherwise be taken for each other:
// while the file is open, no other namespace can get its number.
type heldNamespace struct{ f *os.File }

// childWait bounds how long unshare may take to fork the namespace's
// first process.
const childWait = 30 * time.Second

// holdChildPidNamespace opens the pid namespace of the first child of
// parent (unshare --fork's child, the namespace's init) as soon as it
// exists. It holds nothing if the child is gone before it is seen.
func holdChildPidNamespace(parent int) (heldNamespace, error) {
	children := "/proc/" + strconv.Itoa(parent) + "/task/" + strconv.Itoa(parent) + "/children"
	deadline := time.Now().Add(childWait)
	for time.Now().Before(deadline) {
		data, err := os.ReadFile(children)
		if err != nil {
			return heldNamespace{}, err
		}
		if pid, _, _ := strings.Cut(strings.TrimSpace(string(data)), " "); pid != "" {
			f, err := os.Open("/proc/" + pid + "/ns/pid")
			return heldNamespace{f}, err
		}
		time.Sleep(5 * time.Millisecond)
	}
	return heldNamespace{}, errors.New("unshare forked no child in time")
}

// Close lets the namespace's number go.
func (h heldNamespace) Close() {
	if h.f != nil {
		h.f.Close()
	}
}
