package settings

import (
	"errors"
	"fmt"

	"howett.net/plist"

	"github.com/ctrld-install/ctrld-install/wrapper/internal/safefile"
)

// ErrUnreadable means a source exists but gives no settings: too large,
// not a regular file, or not parsable.
var ErrUnreadable = errors.New("settings source unreadable")

// ReadPlist reads a managed-preferences plist (binary or XML). A missing
// file returns os.ErrNotExist; anything unparsable returns ErrUnreadable.
func ReadPlist(path string) (Settings, error) {
	data, err := readCapped(path)
	if err != nil {
		return nil, err
	}
	return ParsePlist(data)
}

// ParsePlist decodes plist bytes into settings, checking a binary plist's
// structure first.
func ParsePlist(data []byte) (s Settings, err error) {
	if isBinaryPlist(data) {
		if err := checkBinaryPlist(data); err != nil {
			return nil, ErrUnreadable
		}
	}
	defer func() {
		if r := recover(); r != nil {
			s, err = nil, ErrUnreadable
		}
	}()
	var raw map[string]any
	if _, err := plist.Unmarshal(data, &raw); err != nil {
		return nil, ErrUnreadable
	}
	return fromValues(raw), nil
}

// fromValues keeps the known keys whose values have a usable type.
func fromValues(raw map[string]any) Settings {
	s := Settings{}
	for name, v := range raw {
		k, ok := isKey(name)
		if !ok {
			continue
		}
		switch v := v.(type) {
		case string:
			s.put(k, v)
		case bool:
			s.put(k, fmt.Sprint(v))
		case uint64, int64:
			if k == UseDevEnvironment {
				s.put(k, fmt.Sprint(v != uint64(0) && v != int64(0)))
			}
		}
	}
	return s
}

// readCapped reads a regular file of at most MaxFileSize bytes.
func readCapped(path string) ([]byte, error) {
	data, err := safefile.Read(path, safefile.Options{MaxSize: MaxFileSize})
	if errors.Is(err, safefile.ErrRefused) {
		return nil, ErrUnreadable
	}
	return data, err
}
