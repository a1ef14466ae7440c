package settings

import (
	"errors"
	"strconv"

	"github.com/ctrld-install/ctrld-install/wrapper/internal/safefile"
)

// ErrUnreadable means a source exists but gives no settings: too large,
// not a regular file, or not parsable.
var ErrUnreadable = errors.New("settings source unreadable")

// ReadPlist reads a managed-preferences plist (binary or XML). A missing
// file returns os.ErrNotExist; anything unparsable returns ErrUnreadable.
func ReadPlist(path string) (Settings, error) {
	s, _, err := readPlist(path)
	return s, err
}

func readPlist(path string) (Settings, []string, error) {
	data, err := readCapped(path, nil)
	if err != nil {
		return nil, nil, err
	}
	return parsePlist(data)
}

// ParsePlist reads plist bytes into settings. Only the top dictionary's
// four keys are looked at; nothing else in the file is decoded, so memory
// and time stay bounded by the file's size whatever its structure.
func ParsePlist(data []byte) (Settings, error) {
	s, _, err := parsePlist(data)
	return s, err
}

// parsePlist also returns why a known key was ignored, one note per key.
// The notes never hold a value.
func parsePlist(data []byte) (Settings, []string, error) {
	parse := parseXMLPlist
	if isBinaryPlist(data) {
		parse = parseBinaryPlist
	}
	raw, err := parse(data)
	if err != nil {
		return nil, nil, ErrUnreadable
	}
	s := Settings{}
	var notes []string
	for _, k := range Keys {
		src, ok := raw[k]
		if !ok {
			continue
		}
		v, err := src.decode()
		if err != nil {
			return nil, nil, ErrUnreadable
		}
		if why := s.putValue(k, v); why != "" {
			notes = append(notes, string(k)+" "+why+"; ignored")
		}
	}
	return s, notes, nil
}

// rawValues maps each known key found to its value, decoded on demand.
type rawValues map[Key]valueSource

type valueSource interface{ decode() (value, error) }

type valueKind int

const (
	valueString valueKind = iota
	valueBool
	valueInt
	valueTooLong // a string over MaxValueLen, never copied out
	valueOther   // a date, data, real, array, dictionary...
)

// value is a plist value of one of the kinds a setting can take.
type value struct {
	kind    valueKind
	s       string
	b       bool // valueBool
	nonZero bool // valueInt
}

func (v value) decode() (value, error) { return v, nil }

// putValue stores v under k when its type fits the key and returns why it
// did not otherwise. Only UseDevEnvironment takes a boolean or a number.
func (s Settings) putValue(k Key, v value) string {
	switch {
	case v.kind == valueString:
		return s.put(k, v.s)
	case v.kind == valueTooLong:
		return reasonTooLong
	case k == UseDevEnvironment && v.kind == valueBool:
		return s.put(k, strconv.FormatBool(v.b))
	case k == UseDevEnvironment && v.kind == valueInt:
		return s.put(k, strconv.FormatBool(v.nonZero))
	}
	return reasonWrongType
}

// readCapped reads a regular file of at most MaxFileSize bytes, without
// blocking, judged by check when given.
func readCapped(path string, opt *safefile.Options) ([]byte, error) {
	o := safefile.Options{MaxSize: MaxFileSize}
	if opt != nil {
		o = *opt
	}
	data, err := safefile.Read(path, o)
	if errors.Is(err, safefile.ErrRefused) {
		return nil, unreadable{err}
	}
	return data, err
}

// unreadable keeps safefile's reason while matching ErrUnreadable.
type unreadable struct{ reason error }

func (u unreadable) Error() string   { return u.reason.Error() }
func (u unreadable) Unwrap() []error { return []error{ErrUnreadable, u.reason} }
