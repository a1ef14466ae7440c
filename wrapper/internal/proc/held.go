//go:build unix

package proc

import (
	"errors"
	"syscall"
)

// Held is a process the wrapper did not start and may signal: once it
// has exited, no signal reaches a later process that is given its pid.
type Held interface {
	// Signal sends sig to the held process; ErrGone once it has exited.
	Signal(sig syscall.Signal) error
	// Exited reports whether the held process has exited (a zombie has).
	Exited() bool
	Release()
}

// ErrGone means the held process exited: its pid may be another's now.
var ErrGone = errors.New("the held process has exited")

// byStart holds a process by its pid and start time, where the OS gives
// no handle on a process: the start time is read again before every
// signal, so a process that took the pid since is never signalled.
type byStart struct {
	pid   int
	start uint64
}

func holdByStart(pid int) (Held, error) {
	f, err := Lookup(pid)
	if err != nil {
		return nil, err
	}
	if f.Zombie {
		return nil, ErrGone
	}
	return &byStart{pid: pid, start: f.Start}, nil
}

func (h *byStart) Signal(sig syscall.Signal) error {
	if h.Exited() {
		return ErrGone
	}
	return syscall.Kill(h.pid, sig)
}

func (h *byStart) Exited() bool {
	f, err := Lookup(h.pid)
	return err != nil || f.Zombie || f.Start != h.start
}

func (h *byStart) Release() {}
