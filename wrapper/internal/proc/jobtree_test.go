package proc

import (
	"errors"
	"slices"
	"testing"
)

// fakeJobs records what the job logic asks of Windows and fails the
// operations the test names.
type fakeJobs struct {
	fail  map[string]bool
	next  uintptr
	calls []string
}

var errRefused = errors.New("refused")

func (f *fakeJobs) op(name string) error {
	f.calls = append(f.calls, name)
	if f.fail[name] {
		return errRefused
	}
	return nil
}

func (f *fakeJobs) createKillOnClose() (uintptr, error) {
	if err := f.op("create"); err != nil {
		return 0, err
	}
	f.next++
	return f.next, nil
}
func (f *fakeJobs) assignSelf(uintptr) error     { return f.op("assignSelf") }
func (f *fakeJobs) assignPid(uintptr, int) error { return f.op("assignPid") }
func (f *fakeJobs) terminateJob(uintptr)         { f.op("terminateJob") }
func (f *fakeJobs) terminatePid(int)             { f.op("terminatePid") }
func (f *fakeJobs) closeJob(uintptr)             { f.op("closeJob") }

func TestWrapperJoinsItsJobBeforeTheFirstRun(t *testing.T) {
	api := &fakeJobs{}
	tree := &jobTree{api: api}
	r := tree.newRun()
	if tree.self == 0 || !slices.Equal(api.calls, []string{"create", "assignSelf"}) {
		t.Fatalf("before start: self=%d calls=%v", tree.self, api.calls)
	}
	r.started(42)
	r.kill()
	r.release()
	tree.newRun() // the wrapper's job is taken once
	want := []string{"create", "assignSelf", "create", "assignPid", "terminateJob", "closeJob"}
	if !slices.Equal(api.calls, want) {
		t.Fatalf("calls %v, want %v", api.calls, want)
	}
}

func TestAssignmentFailureFallsBackToKillingTheProcess(t *testing.T) {
	api := &fakeJobs{fail: map[string]bool{"assignSelf": true, "assignPid": true}}
	tree := &jobTree{api: api}
	r := tree.newRun()
	r.started(42)
	r.kill()
	r.release()
	want := []string{"create", "assignSelf", "closeJob", "create", "assignPid", "closeJob", "terminatePid"}
	if !slices.Equal(api.calls, want) || tree.self != 0 {
		t.Fatalf("calls %v, want %v", api.calls, want)
	}
}

func TestNoJobAtAllStillKillsTheProcess(t *testing.T) {
	api := &fakeJobs{fail: map[string]bool{"create": true}}
	r := (&jobTree{api: api}).newRun()
	r.started(7)
	r.kill()
	if api.calls[len(api.calls)-1] != "terminatePid" {
		t.Fatalf("calls %v", api.calls)
	}
}
