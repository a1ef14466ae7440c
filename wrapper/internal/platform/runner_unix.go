//go:build unix

package platform

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ctrld-install/ctrld-install/wrapper/internal/proc"
)

// runnerGrace bounds an ExecRunner command once it is cut short.
const runnerGrace = 3 * time.Second

// ErrStopped means the context ended the command; its whole process tree
// was stopped.
var ErrStopped = errors.New("command stopped")

// ExecRunner runs a command the way ctrld start runs: in its own process
// group, stdin closed, output discarded, and on cancel the whole tree
// stopped, grandchildren included. It ends by ctx's deadline, the kill
// grace included: the command is cut short that grace before it.
func ExecRunner(ctx context.Context, env []string, name string, args ...string) error {
	ctx, grace, cancel := proc.WithinDeadline(ctx, runnerGrace)
	defer cancel()
	res, err := proc.Run(ctx, proc.Spec{
		Path: name, Args: args, Env: env, Grace: grace,
	})
	switch {
	case err != nil:
		return err
	case res.Stopped:
		return errors.Join(ErrStopped, res.Cause)
	case res.ExitCode != 0:
		return fmt.Errorf("%s exited %d", name, res.ExitCode)
	}
	return nil
}
