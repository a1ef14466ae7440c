package settings

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"strings"
)

// ErrInsecureFile means the settings file can be changed by users other
// than its owner, so nothing in it is trusted.
var ErrInsecureFile = errors.New("settings file is group- or world-writable")

// ConfFile is the result of reading the Linux settings file.
type ConfFile struct {
	Settings Settings
	// Readable is true when users other than the owner may read the file,
	// which exposes the token: worth a warning, not a refusal.
	Readable bool
}

// ReadConfFile reads the Linux settings file: `Key=Value` lines, blank
// lines and `#` comments, with the same key names as everywhere else.
// Unknown keys are ignored. A missing file returns os.ErrNotExist.
func ReadConfFile(path string) (ConfFile, error) {
	info, err := os.Stat(path)
	if err != nil {
		return ConfFile{}, err
	}
	if info.Mode().Perm()&0o022 != 0 {
		return ConfFile{}, ErrInsecureFile
	}
	data, err := readCapped(path)
	if err != nil {
		return ConfFile{}, err
	}
	return ConfFile{Settings: ParseConf(data), Readable: info.Mode().Perm()&0o044 != 0}, nil
}

// ParseConf reads settings-file text. Lines it cannot read are skipped.
func ParseConf(data []byte) Settings {
	s := Settings{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), MaxFileSize)
	for sc.Scan() {
		line := strings.TrimSpace(strings.TrimSuffix(sc.Text(), "\r"))
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, value, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		if k, known := isKey(strings.TrimSpace(name)); known {
			s.put(k, unquote(strings.TrimSpace(value)))
		}
	}
	return s
}

func unquote(v string) string {
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
		return v[1 : len(v)-1]
	}
	return v
}
