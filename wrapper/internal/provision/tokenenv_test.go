package provision

import (
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/names"
)

// The wrapper reads and scrubs the variable the package scripts and the
// fake ctrld name: the contract's.
func TestTokenEnvIsTheContracts(t *testing.T) {
	if TokenEnv != names.TokenEnv {
		t.Errorf("provision.TokenEnv is %q, the contract's %q", TokenEnv, names.TokenEnv)
	}
}
