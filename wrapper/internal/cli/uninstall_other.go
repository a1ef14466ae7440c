//go:build !linux

package cli

import "time"

// uninstallBound is generous where nothing finishes ctrld's work after it.
const uninstallBound = 2 * time.Minute

// afterUninstall is Linux's; elsewhere the service manager owns the
// daemon and ctrld's uninstall is not cut short.
func afterUninstall(string) {}
