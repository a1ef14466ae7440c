package preflight

import (
	"errors"
	"io/fs"
	"os"

	"github.com/ctrld-install/ctrld-install/internal/codes"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/lock"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/platform"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/provision"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/safefile"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/secret"
)

// installChecks are what start checks before anything else, in its
// order: the home dir, the lock, then the ctrld binary. Their details
// name the paths of --home and --ctrld, where a token may have been
// typed by mistake, one that no token source names: every word shaped
// like a token is removed from them.
func installChecks(p *provision.Provisioner) []Check {
	checks := []Check{homeCheck(p.Config.Home), lockCheck(p.Config.Home), ctrldCheck(p.OS, p.Config.Ctrld)}
	for i := range checks {
		checks[i].Detail = secret.RemoveTokenShaped(checks[i].Detail)
	}
	return checks
}

// homeCheck judges an existing home dir as start does: one that anybody
// but root (or this account) controls is WRAPPER_INTERNAL. A missing one
// start creates, private.
func homeCheck(home string) Check {
	const name = "home"
	if _, err := os.Lstat(home); errors.Is(err, fs.ErrNotExist) {
		return pass(name, home+" does not exist yet: start creates it")
	}
	if err := safefile.TrustedDir(home); err != nil {
		return fail(name, codes.WrapperInternal, "start refuses the home dir: "+err.Error())
	}
	return pass(name, home+" is a directory start accepts")
}

// lockCheck looks for another run on the same home dir without taking
// the lock or creating its file. What start refuses at the lock's path
// (a link, anything but a regular file) is WRAPPER_INTERNAL, as in start.
func lockCheck(home string) Check {
	const name = "lock"
	held, err := lock.Held(home)
	switch {
	case errors.Is(err, safefile.ErrRefused):
		return fail(name, codes.WrapperInternal, "start refuses the lock in "+home+": "+err.Error())
	case err != nil:
		return warn(name, "the lock in "+home+" could not be probed: "+err.Error())
	case held:
		return fail(name, codes.InstallInProgress, "another ctrld-install run holds the lock in "+home)
	case lock.TreeRunning(home):
		return fail(name, codes.InstallInProgress, "a ctrld that a killed run started in "+home+" still runs")
	}
	return pass(name, "no other run holds the lock in "+home)
}

func ctrldCheck(osys platform.OS, path string) Check {
	const name = "ctrld"
	_, err := provision.CtrldUsable(osys, path)
	switch {
	case errors.Is(err, provision.ErrNotExecutable) && path == "":
		return fail(name, codes.CtrldNotFound, "no ctrld beside ctrld-install (--ctrld names one)")
	case errors.Is(err, provision.ErrNotExecutable):
		return fail(name, codes.CtrldNotFound, path+" is missing or not executable")
	case err != nil:
		return fail(name, codes.CtrldNotFound, "start refuses "+path+": "+err.Error())
	}
	return pass(name, path+" is executable and only root can replace it")
}
