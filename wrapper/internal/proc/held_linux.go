package proc

import (
	"errors"
	"syscall"

	"golang.org/x/sys/unix"
)

// Hold takes a handle on process pid (a pidfd): signals sent through it
// reach that process only, never one that reuses its pid. Where no pidfd
// can be had (a kernel before 5.3, a sandbox that forbids the call) the
// start-time check stands in.
func Hold(pid int) (Held, error) {
	fd, err := unix.PidfdOpen(pid, 0)
	switch {
	case errors.Is(err, unix.ESRCH):
		return nil, ErrGone
	case err != nil:
		return holdByStart(pid)
	}
	return &pidfd{fd: fd}, nil
}

// pidfd is a process held by a pidfd.
type pidfd struct{ fd int }

func (h *pidfd) Signal(sig syscall.Signal) error {
	err := unix.PidfdSendSignal(h.fd, sig, nil, 0)
	if errors.Is(err, unix.ESRCH) {
		return ErrGone
	}
	return err
}

// Exited: a pidfd polls readable once its process has exited, reaped or
// not.
func (h *pidfd) Exited() bool {
	fds := []unix.PollFd{{Fd: int32(h.fd), Events: unix.POLLIN}}
	for {
		n, err := unix.Poll(fds, 0)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		return err != nil || n > 0
	}
}

func (h *pidfd) Release() { unix.Close(h.fd) }
