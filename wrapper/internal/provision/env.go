package provision

import (
	"strings"

	"github.com/ctrld-install/ctrld-install/internal/names"
)

// TokenEnv is the environment variable that may carry the token. It is
// removed from ctrld's environment: the token reaches ctrld only in argv.
const TokenEnv = names.TokenEnv

// CtrldEnv drops the token variable from an environment on goos (a
// GOOS value), in any spelling isTokenVar takes: ctrld gets the token in
// argv only.
func CtrldEnv(env []string, goos string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if name, _, _ := strings.Cut(kv, "="); !isTokenVar(name, goos) {
			out = append(out, kv)
		}
	}
	return out
}

// isTokenVar reports whether an environment variable's name is TokenEnv
// on goos. Windows environment names ignore case.
func isTokenVar(name, goos string) bool {
	return name == TokenEnv || goos == "windows" && strings.EqualFold(name, TokenEnv)
}
