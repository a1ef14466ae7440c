package cli

import (
	"os"
	"os/signal"
)

// onInterrupt calls fn on Ctrl+C or Ctrl+Break. When Windows Installer
// cancels, it ends the process outright; the job object then takes ctrld
// down with it.
func onInterrupt(fn func()) (stop func()) {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt)
	done := make(chan struct{})
	go func() {
		select {
		case <-sigs:
			fn()
		case <-done:
		}
	}()
	return func() { close(done) }
}
