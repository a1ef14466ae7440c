//go:build unix

package proc

import (
	"os/exec"
	"syscall"
)

// pgroup puts the child in a new process group, so one signal reaches its
// children and grandchildren too.
type pgroup struct{ pgid int }

func newGroup() group { return &pgroup{} }

func (g *pgroup) prepare(cmd *exec.Cmd) {
	cmd.SysProcAttr = groupAttr()
}

func (g *pgroup) started(cmd *exec.Cmd) { g.pgid = cmd.Process.Pid }

func (g *pgroup) terminate() { g.signal(syscall.SIGTERM) }

func (g *pgroup) kill() { g.signal(syscall.SIGKILL) }

func (g *pgroup) signal(sig syscall.Signal) {
	if g.pgid > 0 {
		syscall.Kill(-g.pgid, sig)
	}
}

func (g *pgroup) release() {}
