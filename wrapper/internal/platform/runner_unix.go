//go:build unix

package platform

import (
	"context"
	"os/exec"
)

// ExecRunner runs a command with stdin, stdout and stderr all closed.
func ExecRunner(ctx context.Context, env []string, name string, args ...string) error {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = env
	return cmd.Run()
}
