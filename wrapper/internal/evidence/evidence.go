// Package evidence keeps what ctrld recorded about a failed attempt for
// support to read: the result file's message and its listener attempts
// (address, protocol, OS error). Every string is bounded, printable ASCII
// only, with every known token value redacted and anything that still
// looks like a token removed, both when the copy is made and when it is
// read back.
package evidence

import (
	"strings"

	"github.com/ctrld-install/ctrld-install/wrapper/internal/result"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/secret"
)

// Bounds. ctrld itself caps attempts at 12 and strings at 256 characters.
const (
	MaxAttempts   = 12
	MaxMessageLen = 256
	MaxAddrLen    = 64
	MaxProtoLen   = 8
	MaxOSErrorLen = 128
)

// cutMark replaces what was cut off a string (known secrets become
// secret.Redact's marker, token-shaped words secret.Removed). It holds
// no word character, so it never joins the word before it into
// something that looks like a token.
const cutMark = "[cut]"

// Attempt is one listen address ctrld tried, kept under the names ctrld
// gives its fields.
type Attempt = result.Attempt

// Evidence is the bounded copy of a result file's free-text fields.
type Evidence struct {
	Message  string    `json:"message"`
	Attempts []Attempt `json:"attempts,omitempty"`
}

// Empty reports whether there is nothing to show.
func (e Evidence) Empty() bool { return e.Message == "" && len(e.Attempts) == 0 }

// Clean returns e bounded and scrubbed with the given secrets. It is
// idempotent, so a copy read back can be cleaned again with the secrets
// known then.
func (e Evidence) Clean(secrets []string) Evidence {
	out := Evidence{Message: Scrub(e.Message, MaxMessageLen, secrets)}
	for i, a := range e.Attempts {
		if i == MaxAttempts {
			break
		}
		out.Attempts = append(out.Attempts, Attempt{
			Addr:    Scrub(a.Addr, MaxAddrLen, secrets),
			Proto:   Scrub(a.Proto, MaxProtoLen, secrets),
			OSError: Scrub(a.OSError, MaxOSErrorLen, secrets),
		})
	}
	return out
}

// Scrub makes one untrusted string safe to store and print: known secrets
// redacted first (so a token split by later steps cannot survive in
// part), then anything outside printable ASCII becomes '?' (and secrets
// are redacted again, for one that holds a '?'), then token-looking words
// are removed, and last the result is cut to max bytes.
func Scrub(s string, max int, secrets []string) string {
	s = secret.Redact(s, secrets...)
	s = secret.Redact(printableASCII(s), secrets...)
	s = secret.RemoveTokenShaped(s)
	s = strings.TrimSpace(s)
	if len(s) > max {
		s = s[:max-len(cutMark)] + cutMark
	}
	return s
}

func printableASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c < 0x20 || c > 0x7e {
			b[i] = '?'
		}
	}
	return string(b)
}
