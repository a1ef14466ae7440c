// Package secret keeps the provisioning token out of every message the
// wrapper writes.
package secret

import "strings"

const (
	mask = "[redacted]"
	// maxEcho bounds how much of an untrusted value a message may quote.
	maxEcho = 80
)

// Redact removes every occurrence of each non-empty secret from s.
func Redact(s string, secrets ...string) string {
	for _, sec := range secrets {
		if sec != "" {
			s = strings.ReplaceAll(s, sec, mask)
		}
	}
	return s
}

// Echo prepares an untrusted value for a log message: the secrets are
// redacted first, then anything but printable ASCII becomes '?', and the
// result is cut short. Redacting first keeps a token split by the cut or
// the replacement from surviving in part.
func Echo(v string, secrets ...string) string {
	v = Redact(v, secrets...)
	b := []byte(v)
	for i, c := range b {
		if c < 0x20 || c >= 0x7f {
			b[i] = '?'
		}
	}
	if len(b) > maxEcho {
		return string(b[:maxEcho]) + "..."
	}
	return string(b)
}
