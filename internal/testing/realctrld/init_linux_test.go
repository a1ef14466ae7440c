package realctrld

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"

	"golang.org/x/sys/unix"
)

// insideDir is where the scenario's host folder appears inside.
const insideDir = "/run/realctrld"

// overlaid are the system folders a scenario may write; their changes go
// to upper folders in the scenario's host folder.
var overlaid = []string{"etc", "var", "usr", "root", "opt", "home", "srv"}

// freshTmpfs are the folders that start empty in every scenario.
var freshTmpfs = []string{"run", "tmp"}

// virtual top folders that keep the namespace's own view.
var virtual = map[string]bool{"proc": true, "sys": true, "dev": true, "lost+found": true}

// devices are bound from the host's /dev into the namespace's fresh /dev.
var devices = []string{"null", "zero", "full", "random", "urandom", "tty"}

// runInit is PID 1 of a scenario: it checks the isolation, builds the file
// system, starts the scenario as its child and reaps every orphan until
// that child ends. Its exit ends the namespace and every process in it.
func runInit() int {
	if err := mustBeNewInit(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 3
	}
	if err := buildFileSystem(os.Getenv(envWork)); err != nil {
		fmt.Fprintln(os.Stderr, "namespace setup:", err)
		return 3
	}
	if err := unix.Sethostname([]byte("ctrld-real")); err != nil {
		fmt.Fprintln(os.Stderr, "hostname:", err)
		return 3
	}
	if out, err := exec.Command("/usr/sbin/ip", "link", "set", "lo", "up").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "lo up: %v %s\n", err, out)
		return 3
	}
	child := exec.Command("/proc/self/exe")
	child.Env = append(os.Environ(), envStage+"="+stageRun)
	child.Stdout, child.Stderr = os.Stdout, os.Stderr
	if err := child.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "scenario:", err)
		return 3
	}
	return reapUntil(child.Process.Pid)
}

// mustBeNewInit refuses to go on unless this process is isolated and PID
// 1 of its new pid namespace.
func mustBeNewInit() error {
	if err := mustBeIsolated(); err != nil {
		return err
	}
	if os.Getpid() != 1 {
		return errors.New("refusing to run: not PID 1 of a new pid namespace")
	}
	return nil
}

// reapUntil reaps every child, adopted orphans included, until pid ends,
// and returns pid's exit code.
func reapUntil(pid int) int {
	for {
		var status unix.WaitStatus
		got, err := unix.Wait4(-1, &status, 0, nil)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return 3
		}
		if got == pid {
			if status.Exited() {
				return status.ExitStatus()
			}
			return 128 + int(status.Signal())
		}
	}
}

// buildFileSystem lays the namespace's file system over the host's:
// overlays on the writable system folders, every other top folder
// read-only, fresh tmpfs on /run, /tmp, /dev and /dev/shm, and the
// scenario's host folder at insideDir.
func buildFileSystem(work string) error {
	if work == "" {
		return errors.New("no scenario folder")
	}
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("make mounts private: %w", err)
	}
	workFD, err := unix.Open(work, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(workFD)
	for _, dir := range overlaid {
		if err := overlay(work, dir); err != nil {
			return err
		}
	}
	if err := readOnlyRest(); err != nil {
		return err
	}
	for _, dir := range freshTmpfs {
		if err := unix.Mount("tmpfs", "/"+dir, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=1777"); err != nil {
			return fmt.Errorf("tmpfs /%s: %w", dir, err)
		}
	}
	os.Chmod("/run", 0o755)
	os.MkdirAll("/run/lock", 0o1777)
	if err := freshDev(); err != nil {
		return err
	}
	if err := os.MkdirAll(insideDir, 0o700); err != nil {
		return err
	}
	src := "/proc/self/fd/" + strconv.Itoa(workFD)
	if err := unix.Mount(src, insideDir, "", unix.MS_BIND, ""); err != nil {
		return fmt.Errorf("bind the scenario folder: %w", err)
	}
	return nil
}

func overlay(work, dir string) error {
	if _, err := os.Stat("/" + dir); err != nil {
		return nil
	}
	upper, scratch := filepath.Join(work, "upper", dir), filepath.Join(work, "ovl-work", dir)
	for _, d := range []string{upper, scratch} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	opts := "lowerdir=/" + dir + ",upperdir=" + upper + ",workdir=" + scratch
	if err := unix.Mount("overlay", "/"+dir, "overlay", 0, opts); err != nil {
		return fmt.Errorf("overlay /%s: %w", dir, err)
	}
	return nil
}

// readOnlyRest binds every other real top folder (the checkout, /boot,
// /mnt, ...) read-only onto itself.
func readOnlyRest() error {
	entries, err := os.ReadDir("/")
	if err != nil {
		return err
	}
	skip := map[string]bool{}
	for _, d := range append(append([]string{}, overlaid...), freshTmpfs...) {
		skip[d] = true
	}
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || skip[name] || virtual[name] {
			continue
		}
		p := "/" + name
		if err := unix.Mount(p, p, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return fmt.Errorf("bind %s: %w", p, err)
		}
		if err := unix.Mount("", p, "", unix.MS_BIND|unix.MS_REMOUNT|unix.MS_RDONLY, ""); err != nil {
			return fmt.Errorf("read-only %s: %w", p, err)
		}
	}
	return nil
}

// freshDev replaces /dev with a tmpfs holding only the basic devices, so
// /dev/log and anything else a scenario creates there stay inside.
func freshDev() error {
	stage := "/run/.host-dev"
	if err := os.MkdirAll(stage, 0o700); err != nil {
		return err
	}
	if err := unix.Mount("/dev", stage, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return fmt.Errorf("stage /dev: %w", err)
	}
	if err := unix.Mount("tmpfs", "/dev", "tmpfs", unix.MS_NOSUID, "mode=755"); err != nil {
		return fmt.Errorf("tmpfs /dev: %w", err)
	}
	for _, d := range devices {
		if err := os.WriteFile("/dev/"+d, nil, 0o666); err != nil {
			return err
		}
		if err := unix.Mount(stage+"/"+d, "/dev/"+d, "", unix.MS_BIND, ""); err != nil {
			return fmt.Errorf("bind /dev/%s: %w", d, err)
		}
	}
	if err := unix.Unmount(stage, unix.MNT_DETACH); err != nil {
		return err
	}
	os.Remove(stage)
	if err := os.MkdirAll("/dev/shm", 0o1777); err != nil {
		return err
	}
	if err := unix.Mount("tmpfs", "/dev/shm", "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=1777"); err != nil {
		return fmt.Errorf("tmpfs /dev/shm: %w", err)
	}
	for name, target := range map[string]string{"fd": "/proc/self/fd", "stdin": "/proc/self/fd/0", "stdout": "/proc/self/fd/1", "stderr": "/proc/self/fd/2"} {
		os.Symlink(target, "/dev/"+name)
	}
	return nil
}
