package realctrld

import (
	"fmt"
	"os"
	"strconv"
	"syscall"
)

// Environment handed from the host into the namespace.
const (
	envStage   = "REALCTRLD_STAGE" // stageInit or stageRun
	envName    = "REALCTRLD_SCENARIO"
	envWork    = "REALCTRLD_WORK"     // the scenario's folder on the host
	envHostNet = "REALCTRLD_HOST_NET" // the host's namespaces, by inode
	envHostMnt = "REALCTRLD_HOST_MNT"
	envHostPid = "REALCTRLD_HOST_PID"
	stageInit  = "init"
	stageRun   = "run"
)

// namespaceInode is the inode of one of this process's namespaces
// ("net", "mnt", "pid").
func namespaceInode(kind string) (uint64, error) {
	var st syscall.Stat_t
	if err := syscall.Stat("/proc/self/ns/"+kind, &st); err != nil {
		return 0, err
	}
	return st.Ino, nil
}

// hostNamespaces are the namespaces the host test runs in, passed in so
// the check holds inside a pid namespace too, where /proc/1 is our own
// init and no longer the host's.
func hostNamespaces() (map[string]string, error) {
	env := map[string]string{}
	for kind, name := range map[string]string{"net": envHostNet, "mnt": envHostMnt, "pid": envHostPid} {
		ino, err := namespaceInode(kind)
		if err != nil {
			return nil, err
		}
		env[name] = strconv.FormatUint(ino, 10)
	}
	return env, nil
}

// mustBeIsolated refuses to go on unless this process sits in a new net,
// mount and pid namespace: different from the host's by inode. Nothing is
// executed inside before it passes.
func mustBeIsolated() error {
	for _, ns := range [][2]string{{"net", envHostNet}, {"mnt", envHostMnt}, {"pid", envHostPid}} {
		kind, name := ns[0], ns[1]
		host, err := strconv.ParseUint(os.Getenv(name), 10, 64)
		if err != nil || host == 0 {
			return fmt.Errorf("refusing to run: the host's %s namespace is unknown (%s)", kind, name)
		}
		own, err := namespaceInode(kind)
		if err != nil {
			return fmt.Errorf("refusing to run: %v", err)
		}
		if own == host {
			return fmt.Errorf("refusing to run: still in the host's %s namespace", kind)
		}
	}
	return nil
}
