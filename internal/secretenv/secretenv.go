// Package secretenv keeps the release's signing secrets (key paths and
// their passwords) away from every go command a mage run starts.
//
// `go run mage.go` hands them over before mage compiles the magefile:
// mage runs `go env`, `go version` and `go build` with its own
// environment, so the secrets leave that environment first and travel
// to the compiled magefile in a file only this user can read, in a
// folder of its own. The magefile takes them once, before any target
// runs, and keeps them in memory for every target of the run.
package secretenv

import (
	"os"
	"strings"
)

// handOffVar names the hand-off file; the name of a file is no secret.
const handOffVar = "CTRLD_MAGE_HANDOFF"

const (
	handOffDirPattern = "ctrld-mage-secrets-*"
	handOffDirPrefix  = "ctrld-mage-secrets-"
	handOffFile       = "secrets.json"
	privateFile       = 0o600
)

// secretPrefixes cover every variable that names a signing key or holds
// its password, the renamed ones and those of kinds added later included.
var secretPrefixes = []string{
	"CTRLD_SIGN_", "CTRLD_MSI_SIGN_", "CTRLD_PKG_SIGN_", "CTRLD_PACKAGE_SIGNING_", "CTRLD_NOTARY_",
}

// IsSecret reports whether the variable name is one the release reads
// once and keeps from every process it starts. Names compare as Windows
// compares them, whatever the case.
func IsSecret(name string) bool {
	upper := strings.ToUpper(name)
	for _, p := range secretPrefixes {
		if strings.HasPrefix(upper, p) {
			return true
		}
	}
	return false
}

// Secrets are the secret variables of one run, by upper-case name.
type Secrets map[string]string

// Getenv reads a secret as os.Getenv reads a variable: empty when unset.
func (s Secrets) Getenv(name string) string { return s[strings.ToUpper(name)] }

// fromEnvironment collects every secret variable set in this process.
func fromEnvironment() Secrets {
	s := Secrets{}
	for _, kv := range os.Environ() {
		name, value, ok := strings.Cut(kv, "=")
		if ok && name != "" && IsSecret(name) {
			s[strings.ToUpper(name)] = value
		}
	}
	return s
}

// forget removes every secret variable and the hand-off's name from this
// process's environment, so no process it starts inherits them.
func forget() {
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if name != "" && IsSecret(name) {
			os.Unsetenv(name)
		}
	}
	os.Unsetenv(handOffVar)
}
