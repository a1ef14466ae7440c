package provision

import (
	"context"
	"os"
	"path/filepath"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/evidence"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/lock"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/platform"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/proc"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/record"
)

// ExitUninstallFailed is Uninstall's answer when ctrld could not be run.
const ExitUninstallFailed = 1

// Uninstall is for package removal on every OS: it has ctrld stop and
// remove its service ("ctrld uninstall", bounded by the OS's Uninstall bound,
// skipped on Linux when ctrld's daemon runs without answering, and skipped
// for a ctrld a user other than root could replace), makes
// sure (on Linux) that nothing of ctrld still acts or is known to the
// init system, removes what is left of either ctrld line (removeEveryLine),
// then deletes what the wrapper itself wrote (the record
// and the lock) and the record's folder when that leaves it empty. All of
// it ends within the OS's Removal bound. It returns ctrld's exit code; 0 when
// there is no ctrld to ask.
func Uninstall(ctx context.Context, cfg Config, osys platform.OS) int {
	bounds := osys.Bounds()
	ctx, cancel := context.WithTimeout(ctx, bounds.Removal)
	defer cancel()
	code := 0
	if ctrldAnswers(cfg, osys) {
		code = uninstallService(ctx, cfg, osys, bounds.Uninstall)
	}
	cleanUp(ctx, cfg, osys)
	removeEveryLine(ctx, cfg, osys)
	record.RemoveLast(cfg.RecordDir)
	evidence.Remove(cfg.RecordDir)
	lock.Remove(cfg.Home)
	removeRecordDir(cfg)
	return code
}

// uninstallService runs "ctrld uninstall" as start would run ctrld: only
// a ctrld no user but root can replace, by the path that was checked.
// Another is never run (ExitUninstallFailed): the clean-up that follows
// does its work.
func uninstallService(ctx context.Context, cfg Config, osys platform.OS, limit time.Duration) int {
	if _, err := os.Stat(cfg.Ctrld); cfg.Ctrld == "" || err != nil {
		return 0
	}
	run, err := CtrldUsable(osys, cfg.Ctrld)
	if err != nil {
		return ExitUninstallFailed
	}
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	ctx, grace, cancelRun := proc.WithinDeadline(ctx, cfg.Grace)
	defer cancelRun()
	res, err := proc.Run(ctx, proc.Spec{
		Path: run, Args: []string{"uninstall"}, Env: cfg.Env,
		Grace: grace,
	})
	if err != nil {
		return ExitUninstallFailed
	}
	return res.ExitCode
}

// removeRecordDir removes the record folder where it is apart from the
// home dir (Windows), with the msiexec log install-msi kept there, and
// the ControlD folder holding it when that is not the home dir either
// (the x86 package's, or one installed elsewhere): each folder only when
// empty. The package removes the home dir.
func removeRecordDir(cfg Config) {
	if cfg.RecordDir == cfg.Home {
		return
	}
	os.Remove(filepath.Join(cfg.RecordDir, names.MsiexecLogFile))
	os.Remove(cfg.RecordDir)
	if parent := filepath.Dir(cfg.RecordDir); parent != cfg.Home {
		os.Remove(parent)
	}
}
