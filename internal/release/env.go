package release

import (
	"os"
	"slices"
	"strings"

	"github.com/ctrld-install/ctrld-install/installers/linux"
	"github.com/ctrld-install/ctrld-install/installers/signing"
)

// SecretVars are the variables that name signing keys or hold their
// passwords. The release reads them once (signing.FromEnv and the GPG
// inputs), then no process it starts may see them: not go build, not
// anything go build starts.
var SecretVars = append(slices.Clone(signing.Vars), linux.KeyEnv, linux.PassphraseEnv)

// ForgetSecrets removes SecretVars from this process's environment, for
// the release to call once it has read them.
func ForgetSecrets() {
	for _, v := range SecretVars {
		os.Unsetenv(v)
	}
}

// childEnv is env without SecretVars, for the processes the release
// starts, whoever calls it and whatever it forgot.
func childEnv(env []string) []string {
	return slices.DeleteFunc(slices.Clone(env), func(kv string) bool {
		name, _, _ := strings.Cut(kv, "=")
		return slices.ContainsFunc(SecretVars, func(v string) bool { return strings.EqualFold(v, name) })
	})
}
