package testenv

import (
	"bytes"
	"os/exec"
	"testing"
)

// ShellCheck runs shellcheck on a POSIX sh script held in memory.
func ShellCheck(t testing.TB, name string, script []byte) {
	t.Helper()
	ShellCheckAs(t, name, "sh", script)
}

// ShellCheckAs runs shellcheck on a script for the given shell (sh, bash).
func ShellCheckAs(t testing.TB, name, shell string, script []byte) {
	t.Helper()
	tool := RequireTool(t, "shellcheck")
	cmd := exec.Command(tool, "--shell="+shell, "-")
	cmd.Stdin = bytes.NewReader(script)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("shellcheck %s: %v\n%s", name, err, out)
	}
}
