// Package settings is the table of provisioning settings: their names,
// kinds, limits and choices, how a value is checked the way ctrld would,
// and what the installers render from them (MSI properties, the policy
// template, the profile). It reads no source; the wrapper's readers do.
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

// IsKey returns the key of Table named name, if any.
func IsKey(name string) (Key, bool) { return IsKeyBytes([]byte(name)) }

// IsKeyBytes is IsKey for bytes. It compares without converting b to a string, so it allocates
// nothing whatever b holds.
func IsKeyBytes(b []byte) (Key, bool) {
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
	ReasonTooLong   = "is longer than the value cap"
	ReasonNotBool   = "is not true or false"
	ReasonWrongType = "has the wrong type"
)

// Put stores a value read from an untrusted source, dropping values over
// the cap and booleans that do not parse. It returns why it dropped one,
// or "".
func (s Settings) Put(k Key, v string) string {
	if len(v) > MaxValueLen {
		return ReasonTooLong
	}
	if IsBool(k) {
		b, ok := ParseBool(v)
		if !ok {
			return ReasonNotBool
		}
		v = strconv.FormatBool(b)
	}
	s[k] = v
	return ""
}

// IsBool says whether k is a Bool setting.
func IsBool(k Key) bool {
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
