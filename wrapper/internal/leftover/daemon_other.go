//go:build !linux

package leftover

import "time"

// StopDaemons is Linux's; elsewhere the service manager owns the daemon.
func StopDaemons(procDir, binary string, grace time.Duration) int { return 0 }
