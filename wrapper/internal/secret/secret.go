// Package secret keeps the provisioning token out of every message the
// wrapper writes.
package secret

import (
	"strconv"
	"strings"
)

const (
	mask = "[redacted]"
	// maxEcho bounds how much of an untrusted value a message may quote.
	maxEcho = 80
	// maxReason bounds an error's text in a message: long enough for
	// the paths it names.
	maxReason = 512
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
func Echo(v string, secrets ...string) string { return echo(v, maxEcho, secrets) }

// Reason prepares an error's text for a log message the way Echo does,
// with room for the paths an error names.
func Reason(err error, secrets ...string) string { return echo(err.Error(), maxReason, secrets) }

func echo(v string, limit int, secrets []string) string {
	v = Redact(v, secrets...)
	b := []byte(v)
	for i, c := range b {
		if c < 0x20 || c >= 0x7f {
			b[i] = '?'
		}
	}
	if len(b) > limit {
		return string(b[:limit]) + "..."
	}
	return string(b)
}

// Describe tells what kind of value v is without quoting any of it: its
// length and the classes of characters it holds.
func Describe(v string) string {
	var classes []string
	for _, c := range []struct {
		name string
		in   func(b byte) bool
	}{
		{"letters", func(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }},
		{"digits", func(b byte) bool { return b >= '0' && b <= '9' }},
		{"punctuation", func(b byte) bool { return b > ' ' && b < 0x7f && b != '"' && b != '\\' && !alnum(b) }},
		{"quotes", func(b byte) bool { return b == '"' }},
		{"backslashes", func(b byte) bool { return b == '\\' }},
		{"spaces", func(b byte) bool { return b == ' ' }},
		{"control characters", func(b byte) bool { return b < ' ' || b == 0x7f }},
		{"non-ASCII bytes", func(b byte) bool { return b >= 0x80 }},
	} {
		if containsClass(v, c.in) {
			classes = append(classes, c.name)
		}
	}
	if len(classes) == 0 {
		return "empty"
	}
	return strconv.Itoa(len(v)) + " bytes of " + strings.Join(classes, ", ")
}

func containsClass(v string, in func(byte) bool) bool {
	for i := 0; i < len(v); i++ {
		if in(v[i]) {
			return true
		}
	}
	return false
}

func alnum(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' }
