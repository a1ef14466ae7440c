package provision

import (
	"time"

	"github.com/ctrld-install/ctrld-install/wrapper/internal/leftover"
)

// uninstallTimeout cuts "ctrld uninstall" short: offline it waits minutes
// for a control socket that never comes; afterUninstall then does its
// work.
const uninstallTimeout = 30 * time.Second

// afterUninstall makes sure, whatever ctrld's uninstall managed, that its
// daemon is stopped, /etc/resolv.conf no longer points at it and its
// sysv service is gone: a daemon left running on a deleted binary, or a
// resolv.conf naming a listener that no longer exists, leaves the
// machine without DNS.
func afterUninstall(cfg Config) {
	if cfg.Ctrld == "" {
		return
	}
	leftover.StopDaemons("/proc", cfg.Ctrld, cfg.Grace)
	leftover.RestoreResolvConf(leftover.ResolvConf, leftover.ResolvBackup)
	leftover.RemoveSysvService("/etc", ServiceName(cfg.Ctrld))
}
