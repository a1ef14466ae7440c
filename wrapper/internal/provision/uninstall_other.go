//go:build !linux

package provision

import (
	"time"

	"github.com/ctrld-install/ctrld-install/wrapper/internal/platform"
)

// uninstallTimeout is generous where nothing finishes ctrld's work after
// it.
const uninstallTimeout = 2 * time.Minute

// afterUninstall is Linux's; elsewhere the service manager owns the
// daemon and ctrld's uninstall is not cut short.
func afterUninstall(Config, platform.OS) {}
