package provision

import (
	"path/filepath"
	"time"

	"github.com/ctrld-install/ctrld-install/wrapper/internal/leftover"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/platform"
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
// It works only inside the roots the OS facts give.
func afterUninstall(cfg Config, osys platform.OS) {
	linux, ok := osys.(platform.Linux)
	if cfg.Ctrld == "" || !ok {
		return
	}
	if linux.Proc != "" {
		leftover.StopDaemons(linux.Proc, cfg.Ctrld, cfg.Grace)
	}
	if linux.Etc != "" {
		leftover.RestoreResolvConf(filepath.Join(linux.Etc, leftover.ResolvConf), filepath.Join(linux.Etc, leftover.ResolvBackup))
		leftover.RemoveSysvService(linux.Etc, ServiceName(cfg.Ctrld))
	}
}
