package proc

import "syscall"

// groupAttr starts the child in its own process group with a parent-death
// signal: a wrapper killed with SIGKILL takes ctrld with it. (The signal
// follows the thread that started the child; Go keeps its threads for
// the life of the process.)
func groupAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
