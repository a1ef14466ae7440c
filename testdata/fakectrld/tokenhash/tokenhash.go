// Package tokenhash is how the fake ctrld records a token without writing
// it: tests compare hashes.
package tokenhash

import (
	"crypto/sha256"
	"encoding/hex"
)

// Of returns the first 12 hex digits of the token's sha256.
func Of(tok string) string {
	sum := sha256.Sum256([]byte(tok))
	return hex.EncodeToString(sum[:])[:12]
}
