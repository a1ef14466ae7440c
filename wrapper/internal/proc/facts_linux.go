package proc

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

const procDir = "/proc"

// The fields of /proc/<pid>/stat after the command name, counted from 0.
const (
	statState = 0
	statPgrp  = 2
	statStart = 19
)

var errNoProcess = errors.New("no such process")

// Boot names the running boot.
func Boot() (string, error) {
	data, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	return strings.TrimSpace(string(data)), err
}

// Lookup reads the facts of process pid.
func Lookup(pid int) (Facts, error) {
	f, err := statFacts(pid)
	if err != nil {
		return f, err
	}
	return withOwner(f)
}

// Group lists the processes of process group id that could be read.
func Group(id int) []Facts {
	entries, _ := os.ReadDir(procDir)
	var out []Facts
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		f, err := statFacts(pid)
		if err != nil || f.Group != id {
			continue
		}
		if f, err = withOwner(f); err == nil {
			out = append(out, f)
		}
	}
	return out
}

// StatFields returns the fields after the command name in
// procDir/<pid>/stat, nil when it cannot be read. The command name may
// hold spaces and parentheses, so the fields start after the last ')'.
func StatFields(procDir string, pid int) []string {
	data, err := os.ReadFile(filepath.Join(procDir, strconv.Itoa(pid), "stat"))
	if err != nil {
		return nil
	}
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return nil
	}
	return strings.Fields(string(data[i+1:]))
}

func statFacts(pid int) (Facts, error) {
	f := StatFields(procDir, pid)
	if len(f) <= statStart {
		return Facts{}, errNoProcess
	}
	group, gerr := strconv.Atoi(f[statPgrp])
	start, serr := strconv.ParseUint(f[statStart], 10, 64)
	if err := errors.Join(gerr, serr); err != nil {
		return Facts{}, err
	}
	return Facts{Pid: pid, Group: group, Start: start, Zombie: f[statState] == "Z"}, nil
}

// withOwner adds the real uid and the executable. The executable of
// another user's process is readable by root only, and a zombie has none.
func withOwner(f Facts) (Facts, error) {
	uid, err := realUID(f.Pid)
	if err != nil {
		return f, err
	}
	f.UID = uid
	f.Exe, _ = FileOf(filepath.Join(procDir, strconv.Itoa(f.Pid), "exe"))
	return f, nil
}

// realUID reads the first of the four ids on the Uid: line of
// /proc/<pid>/status.
func realUID(pid int) (uint32, error) {
	file, err := os.Open(filepath.Join(procDir, strconv.Itoa(pid), "status"))
	if err != nil {
		return 0, err
	}
	defer file.Close()
	lines := bufio.NewScanner(file)
	for lines.Scan() {
		ids, ok := strings.CutPrefix(lines.Text(), "Uid:")
		if !ok {
			continue
		}
		f := strings.Fields(ids)
		if len(f) == 0 {
			break
		}
		uid, err := strconv.ParseUint(f[0], 10, 32)
		return uint32(uid), err
	}
	return 0, errNoProcess
}
