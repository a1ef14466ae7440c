package proc

import (
	"bytes"
	"errors"

	"golang.org/x/sys/unix"
)

// zombie is SZOMB, the p_stat of a process that exited and waits to be
// reaped.
const zombie = 5

var errNoExe = errors.New("no executable path")

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

// exePath reads the path the process was started from: kern.procargs2
// holds argc (four bytes), then that path, NUL-terminated. macOS shows no
// file identity of a process; the path's file stands in for it.
func exePath(pid int) (string, error) {
	buf, err := unix.SysctlRaw("kern.procargs2", pid)
	if err != nil {
		return "", err
	}
	if len(buf) < 4 {
		return "", errNoExe
	}
	path, _, found := bytes.Cut(buf[4:], []byte{0})
	if !found || len(path) == 0 {
		return "", errNoExe
	}
	return string(path), nil
}
