//go:build unix

package cli

import (
	"os"
	"os/signal"
	"syscall"
)

// onInterrupt calls fn on SIGINT or SIGTERM. SIGPIPE is caught too, so a
// closed stdout makes writes fail instead of killing the wrapper; a
// handler (unlike SIG_IGN) is not inherited by ctrld.
func onInterrupt(fn func()) (stop func()) {
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGPIPE)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case s := <-sigs:
				if s != syscall.SIGPIPE {
					fn()
				}
			case <-done:
				return
			}
		}
	}()
	return func() { close(done) }
}
