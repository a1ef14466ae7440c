package proc

import (
	"errors"
	"syscall"

	"golang.org/x/sys/unix"
)

// Hold takes a handle on process pid (a pidfd): signals sent through it
// reach that process only, never one that reuses its pid. A kernel
// without pidfds (before 5.3) gets the start-time check instead.
func Hold(pid int) (Held, error) {
	fd, err := unix.PidfdOpen(pid, 0)
	if errors.Is(err, unix.ENOSYS) {
		return holdByStart(pid)
	}
	if errors.Is(err, unix.ESRCH) {
		return nil, ErrGone
	}
	if err != nil {
		return nil, err
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
