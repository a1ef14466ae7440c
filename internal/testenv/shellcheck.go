package testenv

import (
	"bytes"
	"os/exec"
	"testing"
)

// ShellCheck runs shellcheck on a POSIX sh script held in memory.
func ShellCheck(t testing.TB, name string, script []byte) {
	t.Helper()
	tool := RequireTool(t, "shellcheck")
	cmd := exec.Command(tool, "--shell=sh", "-")
	cmd.Stdin = bytes.NewReader(script)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("shellcheck %s: %v\n%s", name, err, out)
	}
}
