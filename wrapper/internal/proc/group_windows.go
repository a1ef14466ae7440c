package proc

import (
	"os/exec"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// jobGroup holds the child in a job object created with kill-on-close, so
// the tree dies with the job even when the wrapper itself is killed (as
// Windows Installer does when an install is cancelled).
type jobGroup struct {
	job windows.Handle
	pid uint32
}

func newGroup() group { return &jobGroup{} }

func (g *jobGroup) prepare(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{
		CreationFlags: windows.CREATE_NEW_PROCESS_GROUP | windows.CREATE_NO_WINDOW,
	}
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{}
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	_, err = windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)))
	if err != nil {
		windows.CloseHandle(job)
		return
	}
	g.job = job
}

func (g *jobGroup) started(cmd *exec.Cmd) {
	g.pid = uint32(cmd.Process.Pid)
	if g.job == 0 {
		return
	}
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, g.pid)
	if err != nil {
		return
	}
	defer windows.CloseHandle(h)
	windows.AssignProcessToJobObject(g.job, h)
}

// terminate sends CTRL_BREAK to the child's console process group; a
// process without a console ignores it and meets the hard kill instead.
func (g *jobGroup) terminate() {
	if g.pid != 0 {
		windows.GenerateConsoleCtrlEvent(windows.CTRL_BREAK_EVENT, g.pid)
	}
}

func (g *jobGroup) kill() {
	if g.job != 0 {
		windows.TerminateJobObject(g.job, 1)
	}
}

func (g *jobGroup) release() {
	if g.job != 0 {
		windows.CloseHandle(g.job)
		g.job = 0
	}
}
