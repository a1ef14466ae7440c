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
// new one, never a mix. When the folder is refused nothing in it is
// touched; when the write fails the old record is removed, so that `last`
// cannot go on reporting an older attempt.
func SaveLast(dir string, o codes.Outcome) error {
	if err := prepareRecordDir(dir); err != nil {
		return err
	}
	err := writeLast(dir, o)
	if err != nil {
		os.Remove(filepath.Join(dir, LastFileName))
	}
	return err
}

// RemoveLast deletes the record, only from a folder CheckRecordDir accepts.
func RemoveLast(dir string) error {
	if err := checkRecordDir(dir); err != nil {
		return err
	}
	return os.Remove(filepath.Join(dir, LastFileName))
}

func writeLast(dir string, o codes.Outcome) error {
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
	if checkRecordDir(dir) != nil {
		return codes.Outcome{}, false
	}
	data, err := safefile.Read(filepath.Join(dir, LastFileName), safefile.Options{MaxSize: maxLastSize, NoLinks: true})
	if err != nil {
		return codes.Outcome{}, false
	}
	line := strings.TrimSuffix(strings.TrimSuffix(string(data), "\n"), "\r")
	return codes.ParseLine(line)
}
