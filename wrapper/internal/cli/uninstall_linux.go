package cli

import (
	"time"

	"github.com/ctrld-install/ctrld-install/wrapper/internal/leftover"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/provision"
)

// uninstallBound cuts "ctrld uninstall" short: offline it waits minutes
// for a control socket that never comes; afterUninstall then does its
// work.
const uninstallBound = 30 * time.Second

// afterUninstall makes sure, whatever ctrld's uninstall managed, that its
// daemon is stopped, /etc/resolv.conf no longer points at it and its
// sysv service is gone: a daemon left running on a deleted binary, or a
// resolv.conf naming a listener that no longer exists, leaves the
// machine without DNS.
func afterUninstall(ctrld string) {
	if ctrld == "" {
		return
	}
	leftover.StopDaemons("/proc", ctrld, 3*time.Second)
	leftover.RestoreResolvConf(leftover.ResolvConf, leftover.ResolvBackup)
	leftover.RemoveSysvService("/etc", provision.ServiceName(ctrld))
}
