package platform

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/internal/settings"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/safefile"
)

// Darwin is macOS: launchd services, managed preferences from a profile.
type Darwin struct {
	Run Runner
	// LegacyDir is where earlier releases put the binaries; a launchd job
	// still pointing there is moved off it. Empty means no move.
	LegacyDir string
	// JobsDir is /Library/LaunchDaemons, where another ctrld line's job
	// is looked for. Empty means none is.
	JobsDir string
}

// NewDarwin is macOS as it is, running launchctl through run.
func NewDarwin(run Runner) Darwin {
	return Darwin{Run: run, LegacyDir: names.MacLegacyBinDir, JobsDir: names.LaunchDaemonsDir}
}

// launchctl is run by its full path, never looked up on PATH.
const launchctl = "/bin/launchctl"

// ManagedPrefsPath is where a configuration profile for the domain
// com.controld.ctrld lands.
const ManagedPrefsPath = names.ManagedPrefs

func (Darwin) Defaults(string) Defaults {
	return Defaults{Home: names.Home, Prefs: ManagedPrefsPath, PrefsWait: 2 * time.Minute}
}

func (Darwin) ServiceFiles(name string) []string {
	return []string{filepath.Join(names.LaunchDaemonsDir, name+".plist")}
}

func (Darwin) Installed(svc Service) bool { return anyExists(svc.Files) }

// Gate also needs the launchd plist: ctrld can report success without
// having installed the daemon.
func (Darwin) Gate(_ context.Context, svc Service) bool { return anyExists(svc.Files) }

// Reload unloads and loads the existing plist so launchd starts the new
// binary. The unload fails harmlessly when the job was not loaded. A job
// whose binary is not svc.Ctrld and could be replaced by a user other
// than root is never loaded (ErrJobNotTrusted): launchd runs it as root.
func (d Darwin) Reload(ctx context.Context, svc Service) error {
	plist := svc.Files[0]
	if err := checkJobBinary(plist, svc.Ctrld); err != nil {
		return err
	}
	_ = d.Run(ctx, svc.Env, launchctl, "unload", plist)
	return d.Run(ctx, svc.Env, launchctl, "load", "-w", plist)
}

func (Darwin) Policy() settings.Settings { return settings.Settings{} }

// RecordDir is the ctrld home dir, in a place only root can write.
func (Darwin) RecordDir(home string) string { return home }

func (Darwin) Msiexec() string { return "" }

// Ready: launchd owns the daemon, so ctrld's commands reach it.
func (Darwin) Ready(Service) bool { return true }

// RemoveLeftovers has nothing to do: launchd owns the daemon.
func (Darwin) RemoveLeftovers(context.Context, Service, time.Duration) {}

// ErrJobNotTrusted means the launchd job runs a binary that a user other
// than root could replace: it was not loaded.
var ErrJobNotTrusted = errors.New("the launchd job runs a binary a user other than root could replace; it was not loaded")

// checkJobBinary accepts the job at plist when the binary it names is
// ctrld's path, or one only root can replace. A job that cannot be read
// (launchd cannot run it either) or names no binary runs nothing a user
// chose.
func checkJobBinary(plist, ctrld string) error {
	job, _, err := readJob(plist)
	if err != nil {
		return nil
	}
	bin, named := jobBinary(job)
	if !named || filepath.Clean(bin) == filepath.Clean(ctrld) {
		return nil
	}
	if _, err := safefile.Replaceable(bin); err != nil {
		return fmt.Errorf("%w: %s: %w", ErrJobNotTrusted, bin, err)
	}
	return nil
}
