package proc

import "sync"

// jobAPI is the part of Windows' job objects the wrapper uses. The logic
// that decides what goes into which job lives in jobTree, which is tested
// with a fake on every OS.
type jobAPI interface {
	// createKillOnClose makes a job whose processes all die when its last
	// handle closes (the wrapper's own exit, however it comes).
	createKillOnClose() (job uintptr, err error)
	assignSelf(job uintptr) error
	assignPid(job uintptr, pid int) error
	terminateJob(job uintptr)
	terminatePid(pid int)
	closeJob(job uintptr)
}

// jobTree holds the wrapper's process tree in two levels: the wrapper
// itself sits in a kill-on-close job taken before it starts anything, so
// nothing ctrld spawns outlives a killed wrapper; each run's process gets
// a nested job of its own, so a timeout can end that run's tree without
// ending the wrapper.
type jobTree struct {
	api  jobAPI
	once sync.Once
	self uintptr // the job holding the wrapper; 0 when it could not be made
}

// holdSelf puts the wrapper in its kill-on-close job, once. The handle is
// never closed: it closes when the wrapper exits.
func (t *jobTree) holdSelf() bool {
	t.once.Do(func() {
		job, err := t.api.createKillOnClose()
		if err != nil {
			return
		}
		if t.api.assignSelf(job) != nil {
			t.api.closeJob(job)
			return
		}
		t.self = job
	})
	return t.self != 0
}

// runJob is one run's hold on its process.
type runJob struct {
	tree *jobTree
	job  uintptr // the run's own job; 0 when assignment failed
	pid  int
}

func (t *jobTree) newRun() *runJob {
	t.holdSelf()
	return &runJob{tree: t}
}

// started gives the process its own job. If that fails, kill falls back
// to ending the process itself.
func (r *runJob) started(pid int) {
	r.pid = pid
	job, err := r.tree.api.createKillOnClose()
	if err != nil {
		return
	}
	if r.tree.api.assignPid(job, pid) != nil {
		r.tree.api.closeJob(job)
		return
	}
	r.job = job
}

func (r *runJob) kill() {
	switch {
	case r.job != 0:
		r.tree.api.terminateJob(r.job)
	case r.pid != 0:
		r.tree.api.terminatePid(r.pid)
	}
}

func (r *runJob) release() {
	if r.job != 0 {
		r.tree.api.closeJob(r.job)
		r.job = 0
	}
}
