package managed

import (
	"bufio"
	"bytes"
	"errors"
	"io/fs"
	"strconv"
	"strings"

	"github.com/ctrld-install/ctrld-install/internal/settings"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/safefile"
)

// Why the settings file is refused. Each also matches ErrUnreadable.
var (
	// ErrInsecureFile: users other than the owner can change it.
	ErrInsecureFile = errors.New("settings file is group- or world-writable")
	// ErrNotRootOwned: its owner, not only root, can change it.
	ErrNotRootOwned = errors.New("settings file is not owned by root")
)

// ConfFile is the result of reading the Linux settings file.
type ConfFile struct {
	parsed
	// Readable is true when users other than the owner may read the file,
	// which exposes the token: worth a warning, not a refusal.
	Readable bool
}

// ReadConfFile reads the Linux settings file: `Key=Value` lines, blank
// lines and `#` comments, with the same key names as everywhere else.
// Unknown keys are ignored. It is used only when it is a regular file (not
// a link) owned by root and not group- or world-writable, as opened; the
// error says which rule it broke. A missing file returns os.ErrNotExist.
func ReadConfFile(path string) (ConfFile, error) {
	var readable bool
	check := func(info fs.FileInfo) error {
		if err := trustedConf(info); err != nil {
			return err
		}
		readable = info.Mode().Perm()&0o044 != 0
		return nil
	}
	data, err := readCapped(path, &safefile.Options{MaxSize: settings.MaxFileSize, NoLinks: true, Check: check})
	if err != nil {
		return ConfFile{}, err
	}
	return ConfFile{parsed: parseConf(data), Readable: readable}, nil
}

// trustedConf applies the ownership and mode rules to the opened file.
func trustedConf(info fs.FileInfo) error {
	if info.Mode().Perm()&0o022 != 0 {
		return ErrInsecureFile
	}
	if uid, known := fileOwner(info); known && uid != 0 {
		return ErrNotRootOwned
	}
	return nil
}

// maxNotes bounds the notes of one file: each becomes a warning in the OS
// log, and a file of a million bad lines must not make a million.
const maxNotes = 16

// parseConf reads `Key=Value` lines. A value may be quoted with " or ';
// unquoted, it ends where a `#` follows a space or tab (a comment), so a
// `#` inside a token stays part of it.
func parseConf(data []byte) parsed {
	s := settings.Settings{}
	var notes, lost []string
	more := 0
	note := func(n int, why string) {
		if len(notes) == maxNotes {
			more++
			return
		}
		notes = append(notes, "line "+strconv.Itoa(n)+" "+why+"; ignored")
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), settings.MaxFileSize)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(strings.TrimSuffix(sc.Text(), "\r"))
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, raw, ok := strings.Cut(line, "=")
		if !ok {
			note(n, "is not Key=Value")
			continue
		}
		k, known := settings.IsKey(strings.TrimSpace(name))
		if !known {
			note(n, "has an unknown key")
			continue
		}
		v, ok := confValue(raw)
		if !ok {
			note(n, "has an unterminated quote or text after the quoted value")
			continue
		}
		if old, set := s.Get(k); set && k == settings.ProvisionToken && old != v && len(lost) < maxLostTokens {
			lost = append(lost, old)
		}
		if why := s.Put(k, v); why != "" {
			note(n, string(k)+" "+why)
		}
	}
	if more > 0 {
		notes = append(notes, strconv.Itoa(more)+" more lines ignored")
	}
	return parsed{Settings: s, Notes: notes, LostTokens: lost}
}

// confValue reads the text after `=`: a quoted value, or an unquoted one
// up to a comment, either way with an optional comment after it.
func confValue(raw string) (string, bool) {
	raw = strings.TrimSpace(raw)
	if raw != "" && (raw[0] == '"' || raw[0] == '\'') {
		end := strings.IndexByte(raw[1:], raw[0])
		if end < 0 {
			return "", false
		}
		rest := raw[end+2:]
		return raw[1 : end+1], rest == "" || isComment(rest)
	}
	if i := commentStart(raw); i >= 0 {
		raw = raw[:i]
	}
	return strings.TrimSpace(raw), true
}

// commentStart is where a `#` preceded by a space or tab begins, or -1.
func commentStart(v string) int {
	for i := 1; i < len(v); i++ {
		if v[i] == '#' && (v[i-1] == ' ' || v[i-1] == '\t') {
			return i
		}
	}
	return -1
}

// isComment: only blanks, then a `#` comment or nothing, follow.
func isComment(rest string) bool {
	t := strings.TrimLeft(rest, " \t")
	return t == "" || (t[0] == '#' && len(t) < len(rest))
}
