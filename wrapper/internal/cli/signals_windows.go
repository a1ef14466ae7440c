package cli

import (
	"os"
	"os/signal"
)

// onInterrupt calls first on Ctrl+C or Ctrl+Break and again on the
// second. When Windows Installer cancels, it ends the process outright;
// the job object then takes ctrld down with it.
func onInterrupt(first, again func()) (stop func()) {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt)
	return watchSignals(sigs, func(os.Signal) bool { return true }, first, again)
}
