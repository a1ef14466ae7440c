package cli

import "os"

// watchSignals calls first on the first signal that stops counts, again
// on every later one, until stop is called. The signals stay caught after
// stop: a late SIGPIPE or SIGQUIT must not kill the wrapper or dump its
// goroutines while it finishes.
func watchSignals(sigs chan os.Signal, stops func(os.Signal) bool, first, again func()) (stop func()) {
	done := make(chan struct{})
	go func() {
		seen := false
		for {
			select {
			case s := <-sigs:
				if !stops(s) {
					continue
				}
				if seen {
					again()
					continue
				}
				seen = true
				first()
			case <-done:
				return
			}
		}
	}()
	return func() { close(done) }
}
