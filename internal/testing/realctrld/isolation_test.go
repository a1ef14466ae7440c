//go:build linux

package realctrld

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// In the host's namespaces the check must refuse, whatever the stage.
func TestIsolationCheckRefusesTheHostsNamespaces(t *testing.T) {
	host, err := hostNamespaces()
	if err != nil {
		t.Skip(err)
	}
	for k, v := range host {
		t.Setenv(k, v)
	}
	if err := mustBeIsolated(); err == nil || !strings.Contains(err.Error(), "refusing") {
		t.Fatalf("got %v in the host's namespaces", err)
	}
	t.Setenv(envHostNet, "")
	if err := mustBeIsolated(); err == nil {
		t.Fatal("no refusal without the host's namespaces")
	}
}

// A new mount namespace alone is not enough: init refuses before it
// mounts anything, and the scenario is never started.
func TestInitRefusesWithoutANewNetNamespace(t *testing.T) {
	testenv.RequireRoot(t, "checking the isolation of namespaces")
	host, err := hostNamespaces()
	if err != nil {
		t.Skip(err)
	}
	self, _ := os.Executable()
	cmd := exec.Command("unshare", "--mount", "--propagation", "private", self)
	cmd.Env = []string{envStage + "=" + stageInit, envName + "=none", envWork + "=" + t.TempDir()}
	for k, v := range host {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	out, err := cmd.CombinedOutput()
	if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 3 || !strings.Contains(string(out), "still in the host's net namespace") {
		t.Fatalf("exit %v: %s", err, out)
	}
}
