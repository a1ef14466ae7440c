package lock

import (
	"os"
	"strconv"
	"strings"
)

// groupAlive reports whether process group id has a member that is not a
// zombie: an orphan's zombie waits for an init that may never reap it.
func groupAlive(id int) bool {
	if !signalReaches(id) {
		return false
	}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		state, pgrp, ok := procState("/proc/" + e.Name() + "/stat")
		if ok && pgrp == id && state != "Z" {
			return true
		}
	}
	return false
}

// procState reads the state and process group of /proc/<pid>/stat: the
// fields after the command name are state, ppid, pgrp.
func procState(path string) (state string, pgrp int, ok bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", 0, false
	}
	i := strings.LastIndexByte(string(data), ')')
	if i < 0 {
		return "", 0, false
	}
	f := strings.Fields(string(data[i+1:]))
	if len(f) < 3 {
		return "", 0, false
	}
	pgrp, err = strconv.Atoi(f[2])
	return f[0], pgrp, err == nil
}
