//go:build unix

package platform

import (
	"context"
	"os/exec"
)

// execRunner runs a command with stdin, stdout and stderr all closed.
func execRunner(ctx context.Context, env []string, name string, args ...string) error {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = env
	return cmd.Run()
}
