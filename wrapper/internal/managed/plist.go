package managed

import (
	"errors"
	"strconv"

	"github.com/ctrld-install/ctrld-install/internal/settings"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/safefile"
)

// ErrUnreadable means a source exists but gives no settings: too large,
// not a regular file, or not parsable.
var ErrUnreadable = errors.New("settings source unreadable")

// readPlist reads a managed-preferences plist (binary or XML). A missing
// file returns os.ErrNotExist; anything unparsable returns ErrUnreadable.
func readPlist(path string) (parsed, error) {
	data, err := readCapped(path, nil)
	if err != nil {
		return parsed{}, err
	}
	return parsePlist(data)
}

// parsed is what one settings file gives.
type parsed struct {
	Settings settings.Settings
	// Notes say why a known key or line was ignored; they never hold a
	// value.
	Notes []string
	// LostTokens are ProvisionToken values a later entry of the same
	// file overrode (the first few of them): never used, still redacted.
	LostTokens []string
}

// maxLostTokens bounds the overridden token values kept from one file:
// each costs a copy of up to MaxValueLen, and each later message is
// redacted with all of them.
const maxLostTokens = 4

// parsePlist reads plist bytes into settings. Only the top dictionary's
// entries named by Table are looked at; nothing else in the file is
// decoded, so memory and time stay bounded by the file's size whatever
// its structure.
func parsePlist(data []byte) (parsed, error) {
	parse := parseXMLPlist
	if isBinaryPlist(data) {
		parse = parseBinaryPlist
	}
	raw, err := parse(data)
	if err != nil {
		return parsed{}, ErrUnreadable
	}
	f := parsed{Settings: settings.Settings{}}
	for _, k := range settings.Keys {
		src, ok := raw.values[k]
		if !ok {
			continue
		}
		v, err := src.decode()
		if err != nil {
			return parsed{}, ErrUnreadable
		}
		if why := putValue(f.Settings, k, v); why != "" {
			f.Notes = append(f.Notes, string(k)+" "+why+"; ignored")
		}
	}
	for _, src := range raw.lostTokens {
		if v, err := src.decode(); err == nil && v.kind == valueString {
			f.LostTokens = append(f.LostTokens, v.s)
		}
	}
	return f, nil
}

// rawValues maps each known key found to its value, decoded on demand,
// and keeps the first few ProvisionToken values a later entry overrode.
type rawValues struct {
	values     map[settings.Key]valueSource
	lostTokens []valueSource
}

func newRawValues() *rawValues { return &rawValues{values: map[settings.Key]valueSource{}} }

// set gives k the value v; the last entry wins, as in a dictionary.
func (r *rawValues) set(k settings.Key, v valueSource) {
	if old, ok := r.values[k]; ok && k == settings.ProvisionToken && len(r.lostTokens) < maxLostTokens {
		r.lostTokens = append(r.lostTokens, old)
	}
	r.values[k] = v
}

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
// did not otherwise. Only a Bool setting takes a boolean or a number.
func putValue(s settings.Settings, k settings.Key, v value) string {
	switch {
	case v.kind == valueString:
		return s.Put(k, v.s)
	case v.kind == valueTooLong:
		return settings.ReasonTooLong
	case settings.IsBool(k) && v.kind == valueBool:
		return s.Put(k, strconv.FormatBool(v.b))
	case settings.IsBool(k) && v.kind == valueInt:
		return s.Put(k, strconv.FormatBool(v.nonZero))
	}
	return settings.ReasonWrongType
}

// readCapped reads a regular file of at most MaxFileSize bytes, without
// blocking, judged by check when given.
func readCapped(path string, opt *safefile.Options) ([]byte, error) {
	o := safefile.Options{MaxSize: settings.MaxFileSize}
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
