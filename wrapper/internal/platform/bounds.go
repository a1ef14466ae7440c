package platform

import "time"

// Bounds are the time budgets of the wrapper's steps that the OS decides:
// on Linux the wrapper finishes ctrld's work itself inside the package
// manager's own bounds; where a service manager owns the daemon they are
// generous.
type Bounds struct {
	// Removal bounds the wrapper's whole uninstall; Uninstall cuts
	// "ctrld uninstall" short within it, leaving the clean-up the rest.
	Removal, Uninstall time.Duration
	// Reload bounds an upgrade's reload and its success gate together;
	// Restart cuts "ctrld restart" short within it, leaving the gate the
	// rest. Zero Reload means the run's own --timeout and --gate-timeout.
	Reload, Restart time.Duration
	// Cleanup bounds the clean-up after a failed fresh install; zero
	// where there is none.
	Cleanup time.Duration
}

// linuxBounds keep a package removal and an offline upgrade within 30 s:
// dpkg or rpm and the scripts take a few of them. Each bound includes the
// kill grace of what it cuts short: ctrld uninstall, which needs about
// 10 s online, runs 11 s and is killed by 14 s; ctrld restart, about 19 s
// (more on a loaded machine), runs 22 s and is killed by 25 s.
var linuxBounds = Bounds{
	Removal:   25 * time.Second,
	Uninstall: 14 * time.Second,
	Reload:    27 * time.Second,
	Restart:   25 * time.Second,
	Cleanup:   10 * time.Second,
}

// managedBounds leave the daemon to the service manager (launchd, the
// SCM), which finishes nothing after ctrld.
var managedBounds = Bounds{Removal: 3 * time.Minute, Uninstall: 2 * time.Minute}

// Bounds are Linux's tight budgets.
func (Linux) Bounds() Bounds { return linuxBounds }

// Bounds are the generous budgets of a managed service.
func (Darwin) Bounds() Bounds { return managedBounds }

// Bounds are the generous budgets of a managed service.
func (Windows) Bounds() Bounds { return managedBounds }
