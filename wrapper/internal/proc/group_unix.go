//go:build unix

package proc

import (
	"errors"
	"os"
	"syscall"
)

// pgroup starts the child with fork and exec in a new process group, so
// one signal reaches its children and grandchildren too. It calls the
// system directly rather than through os/exec: the wrapper needs none of
// os/exec's extras, and its one-time pidfd probe alone costs a fork on
// the success path.
type pgroup struct{ pid int }

func newGroup() group { return &pgroup{} }

func (g *pgroup) start(path string, args, env []string, stdio [3]*os.File) (int, error) {
	attr := &syscall.ProcAttr{
		Env:   env,
		Files: []uintptr{stdio[0].Fd(), stdio[1].Fd(), stdio[2].Fd()},
		Sys:   groupAttr(),
	}
	pid, err := syscall.ForkExec(path, append([]string{path}, args...), attr)
	if err != nil {
		return 0, &os.PathError{Op: "fork/exec", Path: path, Err: err}
	}
	g.pid = pid
	return pid, nil
}

func (g *pgroup) wait() int {
	var status syscall.WaitStatus
	for {
		_, err := syscall.Wait4(g.pid, &status, 0, nil)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if !status.Exited() {
		return -1
	}
	return status.ExitStatus()
}

func (g *pgroup) terminate() { g.signal(syscall.SIGTERM) }

func (g *pgroup) kill() { g.signal(syscall.SIGKILL) }

// signal reaches the group by its id, which is the leader's pid: it stays
// taken while any process of the group lives.
func (g *pgroup) signal(sig syscall.Signal) {
	if g.pid > 0 {
		syscall.Kill(-g.pid, sig)
	}
}

func (g *pgroup) release() {}
