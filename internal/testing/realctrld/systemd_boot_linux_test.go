package realctrld

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// cgroup2Trees are where a machine mounts its cgroup2 tree: beside the v1
// controllers (mixed, as on the build machines), or alone (as in a
// privileged CI container). Root may create there the cgroup a container
// owns.
var cgroup2Trees = []string{"/sys/fs/cgroup/unified", "/sys/fs/cgroup"}

// cgroup2Root is the machine's cgroup2 tree, "" when it has none.
func cgroup2Root() string {
	for _, dir := range cgroup2Trees {
		var st unix.Statfs_t
		if unix.Statfs(dir, &st) == nil && st.Type == unix.CGROUP2_SUPER_MAGIC {
			return dir
		}
	}
	return ""
}

// Bounds on a container's life. A power-off may take as long as a real
// machine's: systemd waits up to its DefaultTimeoutStopSec (90 s) for a
// unit to stop before it kills it, and ctrld's stop can be slow offline.
const (
	bootLimit     = 2 * time.Minute
	poweroffLimit = 2 * time.Minute
)

// sigPowerOff is SIGRTMIN+4 as glibc counts it: systemd powers off.
const sigPowerOff = syscall.Signal(34 + 4)

// container is one boot of systemd as PID 1 of new pid, mount, net, uts,
// ipc and cgroup namespaces, on an overlay in the scenario's folder.
type container struct {
	work, rootfs string
	cgroup       string // the container's cgroup; systemd owns cgroup/payload
	cmd          *exec.Cmd
	// slave is the host's hold on the console pty: with no holder left
	// (a getty exiting hangs it up) the master would read EIO, close,
	// and systemd would wait on a console it can never open again.
	slave       *os.File
	pidNS       uint64
	consoleDone chan struct{}
	ended       chan struct{} // closed once systemd has exited and been reaped
	hostNS      map[string]string
}

// payload is the cgroup systemd gets as its cgroup namespace's root.
func (c *container) payload() string { return filepath.Join(c.cgroup, "payload") }

// bootContainer starts systemd on the scenario's overlay and waits until
// it reports running or degraded.
func bootContainer(work, rootfs, name string, hostNS map[string]string) (*container, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	tree := cgroup2Root()
	if tree == "" {
		return nil, errors.New("no cgroup2 tree for the container")
	}
	removeStaleCgroups(tree)
	c := &container{work: work, rootfs: rootfs, hostNS: hostNS, cgroup: filepath.Join(tree, cgroupPrefix+name+"-"+strconv.Itoa(os.Getpid()))}
	if err := os.MkdirAll(c.payload(), 0o755); err != nil {
		return nil, fmt.Errorf("cgroup: %w", err)
	}
	cg, err := os.Open(c.payload())
	if err != nil {
		c.removeCgroups()
		return nil, err
	}
	defer cg.Close()
	master, slave, err := openPty()
	if err != nil {
		c.removeCgroups()
		return nil, err
	}
	c.slave = slave
	c.consoleDone = make(chan struct{})
	go c.logConsole(master)
	c.cmd = exec.Command(self)
	c.cmd.Env = c.env(envStage+"="+stageSystemdInit, envWork+"="+work, envRootfs+"="+rootfs, envConsole+"="+slave.Name())
	c.cmd.Stdin, c.cmd.Stdout, c.cmd.Stderr = slave, slave, slave
	c.cmd.SysProcAttr = &syscall.SysProcAttr{
		Cloneflags:  syscall.CLONE_NEWNS | syscall.CLONE_NEWPID | syscall.CLONE_NEWNET | syscall.CLONE_NEWUTS | syscall.CLONE_NEWIPC,
		Setsid:      true,
		Pdeathsig:   syscall.SIGKILL,
		UseCgroupFD: true,
		CgroupFD:    int(cg.Fd()),
	}
	if err := c.cmd.Start(); err != nil {
		slave.Close()
		c.removeCgroups()
		return nil, fmt.Errorf("start the container: %w", err)
	}
	c.pidNS = pidNamespace(strconv.Itoa(c.cmd.Process.Pid))
	c.ended = make(chan struct{})
	go func() {
		c.cmd.Wait()
		close(c.ended)
	}()
	if err := c.waitRunning(); err != nil {
		c.powerOff()
		return nil, err
	}
	return c, nil
}

func (c *container) env(extra ...string) []string {
	env := append(append([]string{}, baseEnv...), extra...)
	for k, v := range c.hostNS {
		env = append(env, k+"="+v)
	}
	return env
}

// consolePath is the file holding everything the container's console
// printed, across its boots.
func consolePath(work string) string { return filepath.Join(work, "console.log") }

func (c *container) logConsole(master *os.File) {
	defer close(c.consoleDone)
	defer master.Close()
	f, err := os.OpenFile(consolePath(c.work), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		io.Copy(io.Discard, master)
		return
	}
	defer f.Close()
	io.Copy(f, master) // ends with EIO once the last holder of the pty closes it
}

func openPty() (master, slave *os.File, err error) {
	fd, err := unix.Open("/dev/ptmx", unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("pty: %w", err)
	}
	master = os.NewFile(uintptr(fd), "/dev/ptmx")
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		master.Close()
		return nil, nil, fmt.Errorf("pty unlock: %w", err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		master.Close()
		return nil, nil, fmt.Errorf("pty number: %w", err)
	}
	slave, err = os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		master.Close()
		return nil, nil, fmt.Errorf("pty: %w", err)
	}
	return master, slave, nil
}

// waitRunning polls systemctl is-system-running until the boot is over.
func (c *container) waitRunning() error {
	deadline := time.Now().Add(bootLimit)
	state := ""
	for time.Now().Before(deadline) {
		out, _ := c.exec(10*time.Second, nil, "systemctl", "is-system-running")
		state = strings.TrimSpace(string(out))
		if state == "running" || state == "degraded" {
			return nil
		}
		if c.exited() {
			break
		}
		time.Sleep(500 * time.Millisecond)
	}
	console, _ := os.ReadFile(consolePath(c.work))
	return fmt.Errorf("systemd did not finish booting within %s (state %q); console:\n%s", bootLimit, state, tail(console, 8192))
}

func (c *container) exited() bool {
	select {
	case <-c.ended:
		return true
	default:
		return false
	}
}

// exec runs a command inside: it joins the container's cgroup, then its
// namespaces and root through nsenter. The whole process group is killed
// when it outlives the bound.
func (c *container) exec(limit time.Duration, env []string, argv ...string) ([]byte, error) {
	cg, err := os.Open(c.payload())
	if err != nil {
		return nil, err
	}
	defer cg.Close()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	args := append([]string{"-t", strconv.Itoa(c.cmd.Process.Pid), "-m", "-u", "-i", "-n", "-p", "-C", "-r", "-w"}, argv...)
	cmd := exec.CommandContext(ctx, "nsenter", args...)
	cmd.Env = c.env(env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, UseCgroupFD: true, CgroupFD: int(cg.Fd())}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &capped{buf: &out}, &capped{buf: &out}
	err = cmd.Run()
	if ctx.Err() != nil {
		err = fmt.Errorf("%s: timed out after %s", strings.Join(argv, " "), limit)
	}
	return out.Bytes(), err
}

// powerOff asks systemd to power off, bounded, then kills whatever is
// left (PID 1's end kills its whole pid namespace) and removes the
// cgroups.
func (c *container) powerOff() error {
	var problems []string
	c.cmd.Process.Signal(sigPowerOff)
	select {
	case <-c.ended:
	case <-time.After(poweroffLimit):
		console, _ := os.ReadFile(consolePath(c.work))
		problems = append(problems, fmt.Sprintf("systemd did not power off within %s; console:\n%s", poweroffLimit, tail(console, 4096)))
		c.cmd.Process.Kill()
		<-c.ended
	}
	c.slave.Close()
	select {
	case <-c.consoleDone:
	case <-time.After(5 * time.Second):
	}
	if err := c.removeCgroups(); err != nil {
		problems = append(problems, err.Error())
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "; "))
	}
	return nil
}

// cgroupPrefix starts the name of every container's cgroup, which ends in
// the pid of the test process that made it.
const cgroupPrefix = "realctrld-"

// removeStaleCgroups removes the cgroups of containers whose test process
// is gone (killed before it could clean up); their processes died with it.
func removeStaleCgroups(tree string) {
	dirs, _ := filepath.Glob(filepath.Join(tree, cgroupPrefix+"*"))
	for _, dir := range dirs {
		pid := dir[strings.LastIndexByte(dir, '-')+1:]
		if _, err := strconv.Atoi(pid); err != nil {
			continue
		}
		if _, err := os.Stat("/proc/" + pid); os.IsNotExist(err) {
			(&container{cgroup: dir}).removeCgroups()
		}
	}
}

// removeCgroups removes the container's cgroups, deepest first; a cgroup
// whose last process just died may stay busy for a moment.
func (c *container) removeCgroups() error {
	var err error
	for try := 0; try < 50; try++ {
		var dirs []string
		filepath.WalkDir(c.cgroup, func(p string, d os.DirEntry, werr error) error {
			if werr == nil && d.IsDir() {
				dirs = append(dirs, p)
			}
			return nil
		})
		err = nil
		for i := len(dirs) - 1; i >= 0; i-- {
			if rerr := os.Remove(dirs[i]); rerr != nil && !os.IsNotExist(rerr) {
				err = rerr
			}
		}
		if err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("remove the container's cgroups: %w", err)
}

// leftovers lists the processes of the container's pid namespace still
// alive on the host.
func (c *container) leftovers() []string {
	var left []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil || pidNamespace(e.Name()) != c.pidNS {
			continue
		}
		cmdline, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		left = append(left, e.Name()+" "+redact(string(bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '}))))
	}
	return left
}
