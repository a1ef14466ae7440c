package platform

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"howett.net/plist"

	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/safefile"
)

// The launchd job keys that name the binary it runs, and its label.
const (
	jobProgram   = "Program"
	jobArguments = "ProgramArguments"
	jobLabel     = "Label"
)

// maxJobPlist bounds what is read of a launchd plist.
const maxJobPlist = 1 << 20

// jobPlistMode is what launchd requires: root's, writable by root alone.
const jobPlistMode = 0o644

var (
	// ErrJobStillLoaded means launchd still has the job that runs the
	// old binary after unload and bootout: nothing was changed.
	ErrJobStillLoaded = errors.New("the launchd job is still loaded after launchctl unload")
	// ErrLegacyCopiesLeft means the job was moved, but old copies of the
	// binaries could not be removed; nothing runs them any more.
	ErrLegacyCopiesLeft = errors.New("old copies of the binaries were left")
	// ErrJobUnreadable means the launchd plist could not be read or
	// decoded, so it was not moved; its binary is left where it is.
	ErrJobUnreadable = errors.New("the launchd plist could not be read")
)

// MoveOffLegacyDir points ctrld's launchd job at svc.Ctrld, the packaged
// binary, when it runs another one: the copy in the folder earlier
// releases installed into (LegacyDir: /usr/local/bin, which Homebrew
// gives to a user on Intel Macs), or any other (a Homebrew prefix, a ctrld
// started by hand from a user's folder). The upgrade's reload must never
// load a job whose binary a user could replace. The order is what keeps
// root from ever running a user's file: the job is unloaded (and launchd
// asked whether it is gone), then its plist is pointed at svc.Ctrld, and
// only then are the old binaries in LegacyDir removed (a binary anywhere
// else is not ours, and stays). Whatever step fails or is cut short, no
// loaded job names a path in LegacyDir whose binary is gone: until the
// plist is rewritten the old binary stays, and a later run finishes the
// move. The wrapper's old copy goes whether or not a job pointed there.
func (d Darwin) MoveOffLegacyDir(ctx context.Context, svc Service) error {
	if len(svc.Files) == 0 {
		return nil
	}
	path := svc.Files[0]
	job, format, err := readJob(path)
	if errors.Is(err, fs.ErrNotExist) {
		return d.removeLegacy(names.Wrapper)
	}
	if err != nil {
		return errors.Join(ErrJobUnreadable, err)
	}
	from, named := jobBinary(job)
	legacy := d.LegacyDir != "" && from == filepath.Join(d.LegacyDir, svc.Name)
	if !named || !legacy && runsCtrld(from, svc.Ctrld) {
		return d.removeLegacy(names.Wrapper)
	}
	repoint(job, from, svc.Ctrld)
	if err := d.unloadJob(ctx, svc, path, jobName(job, svc.Name)); err != nil {
		return err
	}
	if err := writeJob(path, job, format); err != nil {
		return err
	}
	if legacy {
		return d.removeLegacy(svc.Name, names.Wrapper)
	}
	return d.removeLegacy(names.Wrapper)
}

// runsCtrld reports whether a job running bin runs ctrld by a path no
// user but root can change: ctrld's own, or a trusted path to that file.
// The same file reached through a user's link or folder is not enough.
func runsCtrld(bin, ctrld string) bool {
	if filepath.Clean(bin) == filepath.Clean(ctrld) {
		return true
	}
	_, err := safefile.Replaceable(bin)
	return err == nil && sameBinary(bin, ctrld)
}

// jobBinary is the program the job runs: Program, or else the first of
// ProgramArguments, as launchd takes it.
func jobBinary(job map[string]any) (string, bool) {
	if p, ok := job[jobProgram].(string); ok && p != "" {
		return p, true
	}
	args, _ := job[jobArguments].([]any)
	if len(args) == 0 {
		return "", false
	}
	p, ok := args[0].(string)
	return p, ok && p != ""
}

// readJob decodes the launchd plist. It lives in /Library/LaunchDaemons,
// where only root writes, so the general decoder may read it.
func readJob(path string) (map[string]any, int, error) {
	data, err := safefile.Read(path, safefile.Options{MaxSize: maxJobPlist, NoLinks: true})
	if err != nil {
		return nil, 0, err
	}
	var job map[string]any
	format, err := plist.Unmarshal(data, &job)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", path, err)
	}
	return job, format, nil
}

// repoint replaces from with to wherever the job names the binary it
// runs, and reports whether it did.
func repoint(job map[string]any, from, to string) bool {
	moved := false
	if p, ok := job[jobProgram].(string); ok && p == from {
		job[jobProgram], moved = to, true
	}
	args, _ := job[jobArguments].([]any)
	for i, a := range args {
		if s, ok := a.(string); ok && s == from {
			args[i], moved = to, true
		}
	}
	return moved
}

func jobName(job map[string]any, fallback string) string {
	if label, ok := job[jobLabel].(string); ok && label != "" {
		return label
	}
	return fallback
}

// unloadJob unloads the job, and after each way of unloading asks
// launchd for it: neither "launchctl unload" nor "launchctl bootout" says
// reliably whether the job is gone, "launchctl list LABEL" fails once it
// is.
func (d Darwin) unloadJob(ctx context.Context, svc Service, path, label string) error {
	for _, unload := range [][]string{{"unload", path}, {"bootout", "system/" + label}} {
		_ = d.Run(ctx, svc.Env, launchctl, unload...)
		loaded := d.Run(ctx, svc.Env, launchctl, "list", label) == nil
		if err := context.Cause(ctx); err != nil {
			// An interrupted list proves nothing.
			return err
		}
		if !loaded {
			return nil
		}
	}
	return fmt.Errorf("%w: %s (%s)", ErrJobStillLoaded, label, path)
}

// writeJob replaces the plist atomically, in the format it had.
func writeJob(path string, job map[string]any, format int) error {
	data, err := plist.MarshalIndent(job, format, "\t")
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	if err := safefile.Finish(f, data, jobPlistMode); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}

// removeLegacy removes the named files from LegacyDir through the folder
// itself, and only when no symbolic link leads there: a user who owns
// /usr/local could otherwise link the folder to /Library/ControlD and
// have root remove the new binaries.
func (d Darwin) removeLegacy(names ...string) error {
	if d.LegacyDir == "" {
		return nil
	}
	dir := filepath.Clean(d.LegacyDir)
	root, err := os.OpenRoot(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return errors.Join(ErrLegacyCopiesLeft, err)
	}
	defer root.Close()
	if !reachedWithoutLinks(root, dir) {
		return fmt.Errorf("%w: a symbolic link leads to %s", ErrLegacyCopiesLeft, dir)
	}
	var errs []error
	for _, name := range names {
		info, err := root.Lstat(name)
		if errors.Is(err, fs.ErrNotExist) || err == nil && info.IsDir() {
			continue
		}
		if err == nil {
			err = root.Remove(name)
		}
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return errors.Join(append([]error{ErrLegacyCopiesLeft}, errs...)...)
	}
	return nil
}

// reachedWithoutLinks: dir names the folder root opened, with no link on
// the way, now that it is open (so no later swap can matter).
func reachedWithoutLinks(root *os.Root, dir string) bool {
	opened, err := root.Stat(".")
	if err != nil {
		return false
	}
	resolved, err := filepath.EvalSymlinks(dir)
	if err != nil || resolved != dir {
		return false
	}
	now, err := os.Lstat(dir)
	return err == nil && os.SameFile(opened, now)
}
