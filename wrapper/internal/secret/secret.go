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

// MinRun is the shortest run of a secret's characters that counts as
// part of it, ignoring ASCII case: no message may hold one.
const MinRun = 12

// Redact replaces with one mask each stretch of s that is a secret, or a
// run of at least MinRun characters found in one, ignoring ASCII case. A
// secret shorter than MinRun goes only whole. Stretches are found before
// anything is replaced, so the order of the secrets does not matter: a
// short secret that begins a long one leaves none of the long one behind.
func Redact(s string, secrets ...string) string {
	marked := mark(s, secrets)
	if marked == nil {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if !marked[i] {
			b.WriteByte(s[i])
			i++
			continue
		}
		for i < len(s) && marked[i] {
			i++
		}
		b.WriteString(mask)
	}
	return b.String()
}

// Shares reports whether s holds any part of a secret that Redact would
// replace.
func Shares(s string, secrets ...string) bool { return mark(s, secrets) != nil }

// mark flags the bytes of s that Redact replaces, or is nil when there
// are none. Every stretch of MinRun or more characters that a secret
// holds is the union of the MinRun-long windows in it, so checking each
// window of s against those of the secret finds all of them.
func mark(s string, secrets []string) []bool {
	var marked []bool
	lower := lowerASCII(s)
	for _, sec := range secrets {
		if sec == "" {
			continue
		}
		w := min(MinRun, len(sec))
		windows := windowsOf(lowerASCII(sec), w)
		for i := 0; i+w <= len(lower); i++ {
			if _, ok := windows[lower[i:i+w]]; !ok {
				continue
			}
			if marked == nil {
				marked = make([]bool, len(s))
			}
			for j := i; j < i+w; j++ {
				marked[j] = true
			}
		}
	}
	return marked
}

func windowsOf(s string, w int) map[string]struct{} {
	out := make(map[string]struct{}, len(s)-w+1)
	for i := 0; i+w <= len(s); i++ {
		out[s[i:i+w]] = struct{}{}
	}
	return out
}

// lowerASCII lowers A-Z only, so every byte keeps its place.
func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
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
