package release

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// setSecrets gives every secret variable a canary value, the way a
// release engineer's shell would.
func setSecrets(t *testing.T) {
	for _, v := range SecretVars {
		t.Setenv(v, testenv.Canary+"-"+v)
	}
}

// After the release has read its inputs, nothing it starts, by any means,
// inherits a secret.
func TestForgetSecretsKeepsThemFromEveryChild(t *testing.T) {
	setSecrets(t)
	ForgetSecrets()
	out, err := exec.Command(testenv.RequireTool(t, "env")).Output()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), testenv.Canary) {
		t.Fatal("a child of the release sees a signing secret")
	}
}
