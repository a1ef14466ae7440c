package proc

import (
	"os"
	"os/exec"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// wrapperTree holds the wrapper and everything it starts; see jobTree.
var wrapperTree = &jobTree{api: winJobs{}}

// jobGroup holds one run's process in its own job, nested in the
// wrapper's kill-on-close job, so the tree dies with the wrapper even
// when the wrapper itself is killed (as Windows Installer does when an
// install is cancelled).
type jobGroup struct {
	run *runJob
	cmd *exec.Cmd
}

func newGroup() group { return &jobGroup{} }

func (g *jobGroup) start(path string, args, env []string, stdio [3]*os.File) (int, error) {
	g.cmd = exec.Command(path, args...)
	g.cmd.Env = env
	g.cmd.Stdin, g.cmd.Stdout, g.cmd.Stderr = stdio[0], stdio[1], stdio[2]
	g.cmd.SysProcAttr = &syscall.SysProcAttr{
		CreationFlags: windows.CREATE_NEW_PROCESS_GROUP | windows.CREATE_NO_WINDOW,
	}
	// Before the process exists: it is born inside the wrapper's job.
	g.run = wrapperTree.newRun()
	if err := g.cmd.Start(); err != nil {
		return 0, err
	}
	g.run.started(g.cmd.Process.Pid)
	return g.cmd.Process.Pid, nil
}

func (g *jobGroup) wait() int {
	g.cmd.Wait()
	return g.cmd.ProcessState.ExitCode()
}

// terminate sends CTRL_BREAK to the child's console process group; a
// process without a console ignores it and meets the hard kill instead.
func (g *jobGroup) terminate() {
	if g.run.pid != 0 {
		windows.GenerateConsoleCtrlEvent(windows.CTRL_BREAK_EVENT, uint32(g.run.pid))
	}
}

func (g *jobGroup) kill() { g.run.kill() }

func (g *jobGroup) release() { g.run.release() }

// winJobs is jobAPI on Windows.
type winJobs struct{}

func (winJobs) createKillOnClose() (uintptr, error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return 0, err
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{}
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	_, err = windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)))
	if err != nil {
		windows.CloseHandle(job)
		return 0, err
	}
	return uintptr(job), nil
}

func (winJobs) assignSelf(job uintptr) error {
	return windows.AssignProcessToJobObject(windows.Handle(job), windows.CurrentProcess())
}

func (winJobs) assignPid(job uintptr, pid int) error {
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(pid))
	if err != nil {
		return err
	}
	defer windows.CloseHandle(h)
	return windows.AssignProcessToJobObject(windows.Handle(job), h)
}

func (winJobs) terminateJob(job uintptr) { windows.TerminateJobObject(windows.Handle(job), 1) }

func (winJobs) terminatePid(pid int) {
	h, err := windows.OpenProcess(windows.PROCESS_TERMINATE, false, uint32(pid))
	if err != nil {
		return
	}
	defer windows.CloseHandle(h)
	windows.TerminateProcess(h, 1)
}

func (winJobs) closeJob(job uintptr) { windows.CloseHandle(windows.Handle(job)) }
