// Package platform holds what differs between macOS, Windows and Linux:
// default paths, how an installed service is detected, gated and
// reloaded, and the OS's managed settings. The logic of each OS lives in
// plain files behind small interfaces so that it is tested on Linux; only
// the wiring to the real OS sits in _darwin, _windows and _linux files.
package platform

import (
	"context"
	"io/fs"
	"os"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/settings"
)

// Defaults are the OS's default paths and bounds. Every one can be
// overridden on the command line.
type Defaults struct {
	Home      string
	Prefs     string // managed-preferences plist; empty when the OS has none
	Settings  string // settings file; empty when the OS has none
	PrefsWait time.Duration
}

// Service is ctrld's OS service. Its name follows the ctrld binary's name
// (ctrld, ctrld-client), never a fixed string.
type Service struct {
	Name  string
	Ctrld string
	// Files are the service definition files that prove it is installed
	// (the launchd plist, the systemd unit or init script).
	Files []string
	// Env is the environment for commands that reach ctrld; it never
	// holds the token.
	Env []string
}

// OS is one platform's behaviour.
type OS interface {
	Defaults(ctrldDir string) Defaults
	// ServiceFiles lists where the service definition may live.
	ServiceFiles(name string) []string
	// Installed reports whether the service is already installed: the
	// upgrade path.
	Installed(svc Service) bool
	// Gate is the OS's part of the success gate, on top of ctrld status.
	Gate(ctx context.Context, svc Service) bool
	// Reload restarts the existing service on upgrade.
	Reload(ctx context.Context, svc Service) error
	// Ready reports whether ctrld's own commands can reach its daemon;
	// when they cannot, ctrld uninstall would only wait.
	Ready(svc Service) bool
	// MoveOffLegacyDir moves the service off the place earlier releases
	// ran ctrld from, where a user could write, before an upgrade reloads
	// it; nil where the OS has no such place.
	MoveOffLegacyDir(ctx context.Context, svc Service) error
	// OtherLine is the service of the ctrld line whose binary is named
	// line when it is installed while start runs for svc's line, read
	// from its service definition; false when it is not installed.
	OtherLine(svc Service, line string) (Other, bool)
	// RemoveOther stops the other line's daemon through its init system
	// and removes its service, within ctx, keeping its definition in o
	// for RestoreOther. ErrOtherLeft means something of it is left.
	RemoveOther(ctx context.Context, o *Other) error
	// RestoreOther puts the definition RemoveOther removed back and
	// starts the service.
	RestoreOther(ctx context.Context, o Other) error
	// RemoveLeftovers makes sure, after ctrld's uninstall or a failed
	// fresh install, that nothing of svc still acts or is known to the
	// init system; its daemons get grace to stop. It does nothing where
	// the service manager owns the daemon.
	RemoveLeftovers(ctx context.Context, svc Service, grace time.Duration)
	// Policy returns the OS's own managed settings (the Windows policy
	// key); empty where the OS has none beyond files.
	Policy() settings.Settings
	// RecordDir is where the last-result record and the evidence copy
	// live (on Windows msiexec's verbose log too), given ctrld's home dir:
	// a folder in a place where no user but root (SYSTEM and
	// Administrators) can create anything, so that whoever writes there
	// creates it if need be (report.MakeRecordDir) and every reader
	// trusts what it finds in it.
	RecordDir(home string) string
	// Bounds are how long the wrapper's own steps may take on this OS.
	Bounds() Bounds
	// Runnable reports whether a regular file may be run as a program:
	// its execute bit, where the OS has one.
	Runnable(info fs.FileInfo) bool
	// ProgramFile is the file name of the program called name.
	ProgramFile(name string) string
	// Msiexec is the msiexec install-msi runs, by its full path, never
	// looked up on PATH; empty where the OS has none.
	Msiexec() string
}

// Runner runs a command and returns its exit error. Output is discarded:
// ctrld's and launchctl's output may echo settings.
type Runner func(ctx context.Context, env []string, name string, args ...string) error

func anyExists(paths []string) bool {
	for _, p := range paths {
		if _, err := os.Stat(p); err == nil {
			return true
		}
	}
	return false
}
