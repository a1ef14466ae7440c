package release

import (
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/secretenv"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// setSecrets gives every secret variable a canary value, the way a
// release engineer's shell would.
func setSecrets(t *testing.T) {
	for _, v := range SecretVars {
		t.Setenv(v, testenv.Canary+"-"+v)
	}
}

// Every variable the release reads as a secret is one the magefile takes
// out of the environment before any target runs, and mage.go before mage
// runs go: the list and the rule cannot drift apart.
func TestEverySecretVarIsTakenFromTheEnvironment(t *testing.T) {
	for _, v := range SecretVars {
		if !secretenv.IsSecret(v) {
			t.Errorf("%s is read as a secret but left in the environment of go build", v)
		}
	}
}
