package provision

import (
	"testing"

	"github.com/ctrld-install/ctrld-install/contract"
)

// The wrapper reads and scrubs the variable the package scripts and the
// fake ctrld name: the contract's.
func TestTokenEnvIsTheContracts(t *testing.T) {
	if TokenEnv != contract.TokenEnv {
		t.Errorf("provision.TokenEnv is %q, the contract's %q", TokenEnv, contract.TokenEnv)
	}
}
