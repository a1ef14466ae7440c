package provision

import "time"

// A package removal and an offline upgrade each end within 30 s; dpkg or
// rpm and the scripts take a few of them.
const (
	// removalBudget bounds the wrapper's whole uninstall.
	removalBudget = 25 * time.Second
	// uninstallTimeout cuts "ctrld uninstall" short (it needs about 10 s
	// online); cleanUp then does its work in what is left, Grace
	// included.
	uninstallTimeout = 14 * time.Second
	// reloadBudget bounds an upgrade's reload and its success gate
	// together; restartTimeout cuts ctrld restart short within it (it
	// needs about 19 s online, more on a loaded machine), leaving the
	// gate the rest.
	reloadBudget   = 27 * time.Second
	restartTimeout = 22 * time.Second
	// cleanupBudget bounds the clean-up after a failed fresh install.
	cleanupBudget = 10 * time.Second
)
