package realctrld

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"golang.org/x/sys/unix"
)

// Environment for the process that becomes the container's systemd.
const (
	envRootfs        = "REALCTRLD_ROOTFS"  // the cached root file system, the overlay's lower layer
	envConsole       = "REALCTRLD_CONSOLE" // the host's pty the container gets as /dev/console
	stageSystemdInit = "systemd-init"
	stageSystemdRun  = "systemd-run"
	systemdBinary    = "/lib/systemd/systemd"
)

// Folders in a container's scenario folder on the host.
const (
	upperDir   = "upper"    // the overlay's upper layer: every file the container wrote
	scratchDir = "ovl-work" // overlayfs's own work folder
	mergedDir  = "root"     // where the overlay is mounted before pivot_root
)

// deviceNodes are made by hand in the container's fresh /dev.
var deviceNodes = []struct {
	name         string
	major, minor uint32
}{
	{"null", 1, 3}, {"zero", 1, 5}, {"full", 1, 7}, {"random", 1, 8}, {"urandom", 1, 9}, {"tty", 5, 0},
}

// runSystemdInit is the first process of the container's namespaces: it
// enters a cgroup namespace rooted at the cgroup the host put it in,
// builds the container's file system on an overlay over the cached root
// file system and turns into systemd. Everything runs on one OS thread,
// because the cgroup namespace belongs to the thread that unshared it.
func runSystemdInit() int {
	runtime.LockOSThread()
	if err := mustBeNewInit(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 3
	}
	if err := unix.Unshare(unix.CLONE_NEWCGROUP); err != nil {
		fmt.Fprintln(os.Stderr, "cgroup namespace:", err)
		return 3
	}
	root, err := containerRoot(os.Getenv(envWork), os.Getenv(envRootfs))
	if err != nil {
		fmt.Fprintln(os.Stderr, "container setup:", err)
		return 3
	}
	if err := enterRoot(root); err != nil {
		fmt.Fprintln(os.Stderr, "pivot_root:", err)
		return 3
	}
	err = unix.Exec(systemdBinary, []string{systemdBinary, "--unit=multi-user.target"}, []string{"container=other"})
	fmt.Fprintln(os.Stderr, "exec systemd:", err)
	return 3
}

// containerRoot mounts the overlay and the kernel's file systems under
// it, and returns where.
func containerRoot(work, rootfs string) (string, error) {
	if work == "" || rootfs == "" {
		return "", errors.New("no scenario folder or root file system")
	}
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return "", fmt.Errorf("make mounts private: %w", err)
	}
	root := filepath.Join(work, mergedDir)
	for _, d := range []string{upperDir, scratchDir, mergedDir} {
		if err := os.MkdirAll(filepath.Join(work, d), 0o755); err != nil {
			return "", err
		}
	}
	opts := "lowerdir=" + rootfs + ",upperdir=" + filepath.Join(work, upperDir) + ",workdir=" + filepath.Join(work, scratchDir)
	if err := unix.Mount("overlay", root, "overlay", 0, opts); err != nil {
		return "", fmt.Errorf("overlay: %w", err)
	}
	for _, step := range []func(string) error{kernelFileSystems, containerDev} {
		if err := step(root); err != nil {
			return "", err
		}
	}
	inside := filepath.Join(root, insideDir)
	if err := os.MkdirAll(inside, 0o700); err != nil {
		return "", err
	}
	if err := unix.Mount(work, inside, "", unix.MS_BIND, ""); err != nil {
		return "", fmt.Errorf("bind the scenario folder: %w", err)
	}
	return root, nil
}

type mountSpec struct {
	source, target, fstype string
	flags                  uintptr
	data                   string
}

const nosuidNodev = unix.MS_NOSUID | unix.MS_NODEV

// kernelFileSystems mounts proc with the host kernel's /proc/sys
// read-only (the container's systemd-sysctl must not tune the host),
// sysfs read-only, the container's own cgroup2 tree, and fresh tmpfs on
// /run and /tmp, so nothing the container writes there reaches the host.
func kernelFileSystems(root string) error {
	specs := []mountSpec{
		{"proc", "proc", "proc", nosuidNodev | unix.MS_NOEXEC, ""},
		{filepath.Join(root, "proc/sys"), "proc/sys", "", unix.MS_BIND, ""},
		{"", "proc/sys", "", unix.MS_BIND | unix.MS_REMOUNT | unix.MS_RDONLY | nosuidNodev | unix.MS_NOEXEC, ""},
		{"sysfs", "sys", "sysfs", unix.MS_RDONLY | nosuidNodev | unix.MS_NOEXEC, ""},
		{"cgroup2", "sys/fs/cgroup", "cgroup2", nosuidNodev | unix.MS_NOEXEC, ""},
		{"tmpfs", "run", "tmpfs", nosuidNodev, "mode=755"},
		{"tmpfs", "tmp", "tmpfs", nosuidNodev, "mode=1777"},
	}
	return mountAll(root, specs)
}

// containerDev is a fresh /dev: the basic device nodes, its own devpts
// and /dev/shm, and the console the host reads (a pty of the host's, by
// path: a bind needs the copy of its mount in this namespace).
func containerDev(root string) error {
	console := os.Getenv(envConsole)
	if !strings.HasPrefix(console, "/dev/pts/") {
		return errors.New("no console")
	}
	dev := filepath.Join(root, "dev")
	if err := unix.Mount("tmpfs", dev, "tmpfs", unix.MS_NOSUID, "mode=755"); err != nil {
		return fmt.Errorf("tmpfs /dev: %w", err)
	}
	for _, d := range deviceNodes {
		if err := unix.Mknod(filepath.Join(dev, d.name), unix.S_IFCHR|0o666, int(unix.Mkdev(d.major, d.minor))); err != nil {
			return fmt.Errorf("mknod %s: %w", d.name, err)
		}
		os.Chmod(filepath.Join(dev, d.name), 0o666)
	}
	for _, d := range []string{"pts", "shm"} {
		if err := os.Mkdir(filepath.Join(dev, d), 0o755); err != nil {
			return err
		}
	}
	if err := os.WriteFile(filepath.Join(dev, "console"), nil, 0o600); err != nil {
		return err
	}
	specs := []mountSpec{
		{"devpts", "dev/pts", "devpts", unix.MS_NOSUID | unix.MS_NOEXEC, "newinstance,ptmxmode=0666,mode=620,gid=5"},
		{"tmpfs", "dev/shm", "tmpfs", nosuidNodev, "mode=1777"},
		{console, "dev/console", "", unix.MS_BIND, ""},
	}
	if err := mountAll(root, specs); err != nil {
		return err
	}
	links := map[string]string{"ptmx": "pts/ptmx", "fd": "/proc/self/fd", "stdin": "/proc/self/fd/0", "stdout": "/proc/self/fd/1", "stderr": "/proc/self/fd/2"}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(dev, name)); err != nil {
			return err
		}
	}
	return nil
}

func mountAll(root string, specs []mountSpec) error {
	for _, m := range specs {
		target := filepath.Join(root, m.target)
		if err := unix.Mount(m.source, target, m.fstype, m.flags, m.data); err != nil {
			return fmt.Errorf("mount %s on /%s: %w", m.fstype+m.source, m.target, err)
		}
	}
	return nil
}

// enterRoot makes root the process's / and drops the host's file system
// from its mount namespace.
func enterRoot(root string) error {
	if err := unix.Chdir(root); err != nil {
		return err
	}
	if err := unix.PivotRoot(".", "."); err != nil {
		return err
	}
	if err := unix.Unmount(".", unix.MNT_DETACH); err != nil {
		return err
	}
	return unix.Chdir("/")
}
