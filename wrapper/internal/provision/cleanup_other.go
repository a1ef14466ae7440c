//go:build !linux

package provision

import (
	"context"

	"github.com/ctrld-install/ctrld-install/wrapper/internal/platform"
)

// ctrldAnswers is Linux's question; elsewhere ctrld's uninstall always
// runs.
func ctrldAnswers(Config, platform.OS) bool { return true }

// cleanUp is Linux's; elsewhere the service manager owns the daemon and
// ctrld's uninstall is not cut short.
func cleanUp(context.Context, Config, platform.OS) {}
