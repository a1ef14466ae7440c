//go:build unix && !linux

package proc

import "syscall"

// groupAttr starts the child in its own process group. These systems have
// no parent-death signal; the tree marker makes a new run wait instead.
func groupAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
