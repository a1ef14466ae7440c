// Package report sends the one line where admins look for it: stdout, the
// last-result file, and the OS log.
package report

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/ctrld-install/ctrld-install/wrapper/codes"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/safefile"
)

// LastFileName is the last-result file, kept in the ctrld home dir (under
// ProgramData on Windows).
const LastFileName = "ctrld-install-last-result"

// maxLastSize is more than any valid line needs.
const maxLastSize = 512

// SaveLast records the line atomically: a reader sees the old line or the
// new one, never a mix.
func SaveLast(dir string, o codes.Outcome) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".ctrld-install-last-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.WriteString(o.Line() + "\n"); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), filepath.Join(dir, LastFileName))
}

// ReadLast returns the recorded line, re-validated so a tampered or
// corrupt file yields nothing.
func ReadLast(dir string) (codes.Outcome, bool) {
	data, err := safefile.Read(filepath.Join(dir, LastFileName), safefile.Options{MaxSize: maxLastSize})
	if err != nil {
		return codes.Outcome{}, false
	}
	line := strings.TrimSuffix(strings.TrimSuffix(string(data), "\n"), "\r")
	return codes.ParseLine(line)
}
