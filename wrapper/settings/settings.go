// Package settings gathers the provisioning settings of Table from their
// sources (flags and env, managed preferences, the Windows policy key, the
// Linux settings file) and checks them the way ctrld would.
package settings

import (
	"strconv"
	"strings"
)

// Key names a setting. The names are the same on every OS and in every
// source.
type Key string

const (
	ProvisionToken    Key = "ProvisionToken"
	CustomHostname    Key = "CustomHostname"
	InterceptMode     Key = "InterceptMode"
	UseDevEnvironment Key = "UseDevEnvironment"
)

const (
	// MaxFileSize caps a managed-settings file; a larger one is ignored.
	MaxFileSize = 1 << 20
	// MaxValueLen caps one value; a longer one is dropped.
	MaxValueLen = 4 << 10
)

// Settings maps a key to its value as text. A bool is "true" or "false".
// A missing key is unset; an empty token counts as no token.
type Settings map[Key]string

// Get returns a value and whether it is set and non-empty.
func (s Settings) Get(k Key) (string, bool) {
	v, ok := s[k]
	return v, ok && v != ""
}

// Bool reads a boolean setting; unset or unreadable is false.
func (s Settings) Bool(k Key) bool {
	v, _ := s.Get(k)
	b, _ := ParseBool(v)
	return b
}

// Merge returns the settings of s, with each key s lacks taken from lower.
func (s Settings) Merge(lower Settings) Settings {
	out := Settings{}
	for k, v := range lower {
		out[k] = v
	}
	for k, v := range s {
		if v != "" {
			out[k] = v
		}
	}
	return out
}

func isKey(name string) (Key, bool) { return isKeyBytes([]byte(name)) }

// isKeyBytes compares without converting b to a string, so it allocates
// nothing whatever b holds.
func isKeyBytes(b []byte) (Key, bool) {
	for i := range Table {
		if string(b) == string(Table[i].Key) {
			return Table[i].Key, true
		}
	}
	return "", false
}

// Why a value from an untrusted source was dropped. They never quote the
// value.
const (
	reasonTooLong   = "is longer than the value cap"
	reasonNotBool   = "is not true or false"
	reasonWrongType = "has the wrong type"
)

// put stores a value read from an untrusted source, dropping values over
// the cap and booleans that do not parse. It returns why it dropped one,
// or "".
func (s Settings) put(k Key, v string) string {
	if len(v) > MaxValueLen {
		return reasonTooLong
	}
	if isBool(k) {
		b, ok := ParseBool(v)
		if !ok {
			return reasonNotBool
		}
		v = strconv.FormatBool(b)
	}
	s[k] = v
	return ""
}

func isBool(k Key) bool {
	s, _ := Lookup(k)
	return s.Kind == Bool
}

// ParseBool reads a boolean in any spelling a source may use: 1, true,
// yes, 0, false, no, any case; empty is false. ok is false otherwise.
func ParseBool(v string) (b, ok bool) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "1", "true", "yes":
		return true, true
	case "0", "false", "no", "":
		return false, true
	}
	return false, false
}
