// Package proc runs ctrld the way the wrapper needs: in its own process
// group (a job object on Windows), stdin closed, both output streams handed
// to writers as they arrive, and the whole tree killed on cancel.
package proc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// Spec describes one run.
type Spec struct {
	// Path is the program itself; it is not looked up in PATH.
	Path string
	Args []string
	Env  []string
	// Stdout and Stderr receive the output as it arrives; a nil writer
	// sends that stream to the null device, which needs no pipe to drain.
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
	files, err := openStdio(spec)
	if err != nil {
		return Result{}, err
	}
	g := newGroup()
	pid, startErr := g.start(spec.Path, spec.Args, spec.Env, files.child())
	files.closeChildEnds()
	if startErr != nil {
		files.closeAll()
		g.release()
		return Result{}, fmt.Errorf("%w: %w", ErrStart, startErr)
	}
	defer g.release()
	defer track(g)()
	if spec.Started != nil {
		spec.Started(pid)
	}

	drained := pump(spec.Stdout, files.outR, spec.Stderr, files.errR)
	waited := make(chan int, 1)
	go func() { waited <- g.wait() }()

	res := Result{}
	select {
	case res.ExitCode = <-waited:
	case <-ctx.Done():
		res.Stopped, res.Cause = true, context.Cause(ctx)
		res.ExitCode = stopTree(g, waited, spec.Grace)
	}
	finishDrain(drained, spec.Drain, files.outR, files.errR)
	files.closeAll()
	return res, nil
}

// stopTree asks the group to stop, waits up to grace for the main process,
// then kills whatever is left of the group. It returns the exit code.
func stopTree(g group, waited chan int, grace time.Duration) int {
	g.terminate()
	select {
	case code := <-waited:
		waited <- code
	case <-time.After(grace):
	}
	g.kill()
	return <-waited
}

// pump copies each pipe there is to its writer concurrently; the returned
// channel closes when all reach end of file.
func pump(out io.Writer, outR *os.File, errOut io.Writer, errR *os.File) <-chan struct{} {
	var wg sync.WaitGroup
	for _, p := range []struct {
		w io.Writer
		r *os.File
	}{{out, outR}, {errOut, errR}} {
		if p.r == nil {
			continue
		}
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
			if p != nil {
				p.Close()
			}
		}
		<-drained
	}
}

// group is the OS mechanism that starts the process and holds its tree.
type group interface {
	// start runs path with stdin, stdout and stderr as given and returns
	// its process id.
	start(path string, args, env []string, stdio [3]*os.File) (pid int, err error)
	// wait waits for the process and returns its exit code, -1 when a
	// signal ended it.
	wait() int
	terminate()
	kill()
	release()
}
