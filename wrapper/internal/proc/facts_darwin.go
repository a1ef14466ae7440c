package proc

import "golang.org/x/sys/unix"

// zombie is SZOMB, the p_stat of a process that exited and waits to be
// reaped.
const zombie = 5

// Boot names the running boot: macOS makes a new UUID each boot.
func Boot() (string, error) { return unix.Sysctl("kern.bootsessionuuid") }

// Lookup reads the facts of process pid.
func Lookup(pid int) (Facts, error) {
	k, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil {
		return Facts{}, err
	}
	return facts(k), nil
}

// Group lists the processes of process group id.
func Group(id int) []Facts {
	procs, _ := unix.SysctlKinfoProcSlice("kern.proc.pgrp", id)
	out := make([]Facts, 0, len(procs))
	for i := range procs {
		out = append(out, facts(&procs[i]))
	}
	return out
}

func facts(k *unix.KinfoProc) Facts {
	pid := int(k.Proc.P_pid)
	start := k.Proc.P_starttime
	f := Facts{
		Pid:    pid,
		Group:  int(k.Eproc.Pgid),
		Start:  uint64(start.Sec)*1_000_000 + uint64(start.Usec),
		UID:    k.Eproc.Pcred.P_ruid,
		Zombie: k.Proc.P_stat == zombie,
	}
	if path, err := exePath(pid); err == nil {
		f.Exe, _ = FileOf(path)
	}
	return f
}

// exePath reads the path the process was started from. macOS shows no
// file identity of a process; the path's file stands in for it.
func exePath(pid int) (string, error) {
	buf, err := unix.SysctlRaw("kern.procargs2", pid)
	if err != nil {
		return "", err
	}
	return procArgsPath(buf)
}
