// Package proc runs ctrld the way the wrapper needs: in its own process
// group (a job object on Windows), stdin closed, both output streams handed
// to writers as they arrive, and the whole tree killed on cancel.
package proc

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"
)

// Spec describes one run.
type Spec struct {
	Path   string
	Args   []string
	Env    []string
	Stdout io.Writer
	Stderr io.Writer
	// Grace is how long a polite stop may take before the hard kill.
	Grace time.Duration
	// Drain bounds the wait for the output pipes to close after the
	// process exits (a grandchild may hold them open).
	Drain time.Duration
	// Started, when set, is told the process id once the process runs; on
	// Unix it is also the id of the process group that holds the tree.
	Started func(pid int)
}

// Result is how the run ended.
type Result struct {
	// ExitCode is the process's exit code, or -1 when a signal ended it.
	ExitCode int
	// Stopped is true when the context ended the run and the tree was
	// killed; Cause is context.Cause of that context.
	Stopped bool
	Cause   error
}

// ErrStart wraps a failure to start the process at all.
var ErrStart = errors.New("could not start process")

// Run starts the process and waits for it. When ctx ends first, the whole
// tree gets a polite stop, then a hard kill after Grace.
func Run(ctx context.Context, spec Spec) (Result, error) {
	outR, outW, err := os.Pipe()
	if err != nil {
		return Result{}, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return Result{}, err
	}
	cmd := exec.Command(spec.Path, spec.Args...)
	cmd.Env = spec.Env
	cmd.Stdout, cmd.Stderr = outW, errW
	g := newGroup()
	g.prepare(cmd)
	startErr := cmd.Start()
	outW.Close()
	errW.Close()
	if startErr != nil {
		outR.Close()
		errR.Close()
		g.release()
		return Result{}, errors.Join(ErrStart, startErr)
	}
	g.started(cmd)
	defer g.release()
	defer track(g)()
	if spec.Started != nil {
		spec.Started(cmd.Process.Pid)
	}

	drained := pump(spec.Stdout, outR, spec.Stderr, errR)
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()

	res := Result{}
	select {
	case <-waited:
	case <-ctx.Done():
		res.Stopped, res.Cause = true, context.Cause(ctx)
		stopTree(g, waited, spec.Grace)
	}
	res.ExitCode = cmd.ProcessState.ExitCode()
	finishDrain(drained, spec.Drain, outR, errR)
	return res, nil
}

// stopTree asks the group to stop, waits up to grace for the main process,
// then kills whatever is left of the group.
func stopTree(g group, waited chan error, grace time.Duration) {
	g.terminate()
	select {
	case err := <-waited:
		waited <- err
	case <-time.After(grace):
	}
	g.kill()
	err := <-waited
	waited <- err
}

// pump copies both pipes to their writers concurrently; the returned
// channel closes when both reach end of file.
func pump(out io.Writer, outR *os.File, errOut io.Writer, errR *os.File) <-chan struct{} {
	var wg sync.WaitGroup
	for _, p := range []struct {
		w io.Writer
		r *os.File
	}{{out, outR}, {errOut, errR}} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, 32<<10)
			io.CopyBuffer(p.w, p.r, buf)
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	return done
}

// finishDrain waits for the pipes to close, but not forever: a process left
// behind holding them must not hold up the wrapper.
func finishDrain(drained <-chan struct{}, limit time.Duration, pipes ...*os.File) {
	select {
	case <-drained:
	case <-time.After(limit):
		for _, p := range pipes {
			p.Close()
		}
		<-drained
	}
	for _, p := range pipes {
		p.Close()
	}
}

// group is the OS mechanism that holds the process tree.
type group interface {
	prepare(cmd *exec.Cmd)
	started(cmd *exec.Cmd)
	terminate()
	kill()
	release()
}
