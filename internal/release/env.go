package release

import (
	"slices"
	"strings"

	"github.com/ctrld-install/ctrld-install/installers/linux"
	"github.com/ctrld-install/ctrld-install/installers/signing"
	"github.com/ctrld-install/ctrld-install/internal/secretenv"
)

// SecretVars are the variables that name signing keys or hold their
// passwords. The magefile takes them before any target runs
// (secretenv.Take), and no process the release starts may see them: not
// go build, not anything go build starts.
var SecretVars = append(slices.Clone(signing.Vars), linux.KeyEnv, linux.PassphraseEnv)

// childEnv is env without SecretVars, for the processes the release
// starts, whoever calls it and whatever it forgot.
func childEnv(env []string) []string {
	return slices.DeleteFunc(slices.Clone(env), func(kv string) bool {
		name, _, _ := strings.Cut(kv, "=")
		return secretenv.IsSecret(name) || slices.ContainsFunc(SecretVars, func(v string) bool { return strings.EqualFold(v, name) })
	})
}
