package cli

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/ctrld-install/ctrld-install/wrapper/internal/lock"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/platform"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/proc"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/provision"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/report"
)

// runUninstall is for package removal: it has ctrld stop and remove its
// service ("ctrld uninstall"), then deletes what the wrapper itself wrote
// (the last-result record and the lock file) and the record's folder when
// that leaves it empty. It prints nothing and exits with ctrld's code.
func runUninstall(args []string, stdout, stderr io.Writer) int {
	var f startFlags
	fs := locationFlags("uninstall", &f)
	if exit, done := parseOrExplain(fs, args, stdout, stderr); done {
		return exit
	}
	osys := platform.Current()
	code := uninstallService(f.ctrldPath())
	afterUninstall(f.ctrldPath())
	home := f.homeOrDefault(osys)
	records := osys.LastResultDir(home)
	os.Remove(filepath.Join(records, report.LastFileName))
	os.Remove(filepath.Join(home, lock.FileName))
	if records != home {
		os.Remove(records) // only succeeds when empty
	}
	return code
}

func uninstallService(ctrld string) int {
	if _, err := os.Stat(ctrld); ctrld == "" || err != nil {
		return exitOK
	}
	ctx, cancel := context.WithTimeout(context.Background(), uninstallBound)
	defer cancel()
	res, err := proc.Run(ctx, proc.Spec{
		Path: ctrld, Args: []string{"uninstall"}, Env: provision.CtrldEnv(os.Environ()),
		Stdout: io.Discard, Stderr: io.Discard, Grace: 3 * time.Second, Drain: time.Second,
	})
	if err != nil {
		return exitNone
	}
	return res.ExitCode
}
