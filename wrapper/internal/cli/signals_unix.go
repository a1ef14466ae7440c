//go:build unix

package cli

import (
	"os"
	"os/signal"
	"syscall"
)

// stopSignals are the signals that cancel the wrapper. SIGHUP and SIGQUIT
// count as SIGTERM: an installer's session ending, or a quit key, must
// stop ctrld's tree too, and SIGQUIT must not dump goroutines on stderr.
var stopSignals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT}

// onInterrupt calls first on the first stop signal and again on the
// second. SIGPIPE is caught too, so a closed stdout makes writes fail
// instead of killing the wrapper; a handler (unlike SIG_IGN) is not
// inherited by ctrld.
func onInterrupt(first, again func()) (stop func()) {
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, append(stopSignals, syscall.SIGPIPE)...)
	return watchSignals(sigs, func(s os.Signal) bool { return s != syscall.SIGPIPE }, first, again)
}
