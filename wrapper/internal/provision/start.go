package provision

import (
	"context"
	"errors"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/codes"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/lock"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/platform"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/proc"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/result"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/scan"
)

// start runs `ctrld start` and decides the outcome in the contract's
// order: the last valid identifier line, then a trusted result file, then
// the exit code, and for exit 0 the success gate.
func (p *Provisioner) start(ctx context.Context, svc platform.Service, args []string) codes.Outcome {
	// The result file is trusted from this second on; ctrld stamps it in
	// whole seconds.
	began := time.Now().Truncate(time.Second)
	// A code that holds a token the run has seen is never passed on.
	judge := scan.Judge{Known: p.seen}
	stdout, stderr := judge.NewStream(), judge.NewStream()
	runCtx, cancel := context.WithTimeoutCause(ctx, p.Config.Timeout, errTimeout)
	defer cancel()
	res, err := p.runMarked(runCtx, proc.Spec{
		Path: p.Config.Ctrld, Args: args, Env: p.Config.Env,
		Stdout: stdout, Stderr: stderr,
		Grace: p.Config.Grace, Drain: 2 * time.Second,
	})
	if err != nil {
		p.warn(codes.CtrldNotFound.Name + ": ctrld start: " + p.reason(err))
		return codes.Failure(codes.CtrldNotFound)
	}
	stdout.Close()
	stderr.Close()
	switch {
	case interrupted(ctx):
		return codes.Failure(codes.WrapperInterrupted)
	case res.Stopped && errors.Is(res.Cause, errTimeout):
		return codes.Failure(codes.CtrldTimeout)
	}
	if c, ok := judge.Last(); ok {
		return codes.Failure(c)
	}
	if c, err := result.Read(p.Config.Home, began); err == nil {
		return codes.Failure(c)
	}
	if res.ExitCode == 0 {
		return p.gate(ctx, svc)
	}
	return byExitCode(res.ExitCode)
}

// runMarked runs ctrld with its tree named in the tree marker while it
// runs. The marker goes however the run ends, a panic included.
func (p *Provisioner) runMarked(ctx context.Context, spec proc.Spec) (proc.Result, error) {
	defer lock.ClearTree(p.Config.Home)
	spec.Started = func(pid int) { lock.MarkTree(p.Config.Home, pid, p.Config.Ctrld) }
	return proc.Run(ctx, spec)
}

// byExitCode maps ctrld's own exit codes (21-59) that name exactly one
// code. Anything else, a signal included, is unidentified.
func byExitCode(exit int) codes.Outcome {
	if c, ok := codes.ByExit(exit); ok && codes.IsCtrldStage(c.Stage) {
		return codes.Failure(c)
	}
	return codes.Failure(codes.CtrldUnidentified)
}

// gate checks that the service really runs: `ctrld status` exits 0 (3
// means not ready yet), and the OS agrees (the launchd plist on macOS, the
// SCM on Windows). It polls up to GateTimeout.
func (p *Provisioner) gate(ctx context.Context, svc platform.Service) codes.Outcome {
	gctx, cancel := context.WithTimeout(ctx, p.Config.GateTimeout)
	defer cancel()
	for {
		status := p.status(gctx)
		if interrupted(ctx) {
			return codes.Failure(codes.WrapperInterrupted)
		}
		if status == 0 && p.OS.Gate(gctx, svc) {
			return codes.Success
		}
		if status != 0 && status != statusNotReady && status != statusCut {
			return codes.Failure(codes.SuccessGateFailed)
		}
		select {
		case <-gctx.Done():
			if interrupted(ctx) {
				return codes.Failure(codes.WrapperInterrupted)
			}
			return codes.Failure(codes.SuccessGateFailed)
		case <-time.After(p.Config.Poll):
		}
	}
}

const (
	// statusNotReady is ctrld status's "installed, not ready yet".
	statusNotReady = 3
	// statusCut marks a status call the gate's own deadline cut short.
	statusCut = -2
)

func (p *Provisioner) status(ctx context.Context) int {
	res, err := proc.Run(ctx, proc.Spec{
		Path: p.Config.Ctrld, Args: []string{"status"}, Env: p.Config.Env,
		Grace: p.Config.Grace,
	})
	switch {
	case err != nil:
		p.warn("ctrld status did not run: " + p.reason(err))
		return -1
	case res.Stopped:
		return statusCut
	}
	return res.ExitCode
}
