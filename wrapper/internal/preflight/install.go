package preflight

import (
	"errors"

	"github.com/ctrld-install/ctrld-install/wrapper/codes"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/lock"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/platform"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/provision"
)

// installChecks are what start checks before anything else, in its
// order: the lock, then the ctrld binary.
func installChecks(p *provision.Provisioner) []Check {
	return []Check{lockCheck(p.Config.Home), ctrldCheck(p.OS, p.Config.Ctrld)}
}

// lockCheck looks for another run on the same home dir without taking
// the lock or creating its file.
func lockCheck(home string) Check {
	const name = "lock"
	held, err := lock.Held(home)
	switch {
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
