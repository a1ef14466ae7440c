//go:build !linux

package provision

import "time"

// Generous bounds where the service manager owns the daemon and nothing
// finishes ctrld's work after it.
const (
	removalBudget    = 3 * time.Minute
	uninstallTimeout = 2 * time.Minute
	// reloadBudget leaves the reload to --timeout and the gate to
	// --gate-timeout.
	reloadBudget   = DefaultTimeout + DefaultGateTimeout
	restartTimeout = DefaultTimeout
	cleanupBudget  = 0
)
