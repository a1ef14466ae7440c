// Package record keeps the one line where admins look for it where admins look for it: stdout, the
// last-result file, and the OS log.
package record

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/codes"
	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/safefile"
)

// LastFileName is the last-result file, kept in the record folder
// (platform.OS's RecordDir): the ctrld home dir on macOS and Linux.
const LastFileName = names.LastResultFile

// maxLastSize is more than any valid line needs.
const maxLastSize = 512

// pendingName is the record being written; under the lock only one run
// writes it, and a run killed midway leaves at most this one file, which
// the next run overwrites. Where the OS can swap two names, it holds the
// previous record after a commit, if that was a line the wrapper wrote,
// until the next run.
const pendingName = names.PendingResultFile

// MakeRecordDir creates the record folder if it is not there yet, before
// anything is written in it: private to root on macOS and Linux, and on
// Windows with what Program Files passes on (administrators write, users
// read). The folder is where only root can create anything, so what is
// there is the wrapper's; one that exists is used only when root (or this
// account) alone controls it (safefile.TrustedDir).
func MakeRecordDir(dir string) error {
	if err := os.MkdirAll(dir, recordDirMode); err != nil {
		return err
	}
	return safefile.TrustedDir(dir)
}

// recordDirMode is the record folder's mode where the OS has modes.
const recordDirMode = 0o700

// SaveLast records the line atomically and durably: a reader sees the old
// line or the new one, never a mix, and a line once visible survives a
// power cut.
func SaveLast(dir string, o codes.Outcome) error {
	return Prepare(dir, o).Commit()
}

// Pending is a record written and flushed to disk ahead of time; only
// Commit makes it the record. Flushing is the slow part of recording, so
// a caller that can guess the outcome prepares it while it works and
// pays only the move at the end.
type Pending struct {
	dir     string
	outcome codes.Outcome
	flushed chan prepared
}

// prepared is what the background work found.
type prepared struct {
	err error
	// keepAside is true when the current record is a line the wrapper
	// wrote, which may wait under the pending name once replaced; anything
	// else there is freed at once.
	keepAside bool
}

// Prepare starts writing and flushing the record for o in the
// background.
func Prepare(dir string, o codes.Outcome) *Pending {
	p := &Pending{dir: dir, outcome: o, flushed: make(chan prepared, 1)}
	go func() {
		err := writePending(dir, o.Line()+"\n")
		_, valid := ReadLast(dir)
		p.flushed <- prepared{err: err, keepAside: valid}
	}()
	return p
}

// Commit waits for the flush and moves the pending file over the
// record. When that fails the old record is removed too, so that `last`
// cannot go on reporting an older attempt.
func (p *Pending) Commit() error {
	err := p.commit()
	if err != nil {
		os.Remove(filepath.Join(p.dir, pendingName))
		os.Remove(filepath.Join(p.dir, LastFileName))
	}
	return err
}

func (p *Pending) commit() error {
	done := <-p.flushed
	if done.err != nil {
		return done.err
	}
	pending, record := filepath.Join(p.dir, pendingName), filepath.Join(p.dir, LastFileName)
	if done.keepAside {
		return replace(pending, record)
	}
	return os.Rename(pending, record)
}

// Record commits p when it holds o and writes o afresh otherwise.
func (p *Pending) Record(o codes.Outcome) error {
	if o == p.outcome {
		return p.Commit()
	}
	<-p.flushed
	return SaveLast(p.dir, o)
}

func writePending(dir, text string) error {
	if err := MakeRecordDir(dir); err != nil {
		return err
	}
	return writeFlushed(filepath.Join(dir, pendingName), text)
}

// writeFlushed writes a new file at path (never through a link: an
// existing file or link is removed first) and flushes it to disk.
func writeFlushed(path, text string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	return safefile.Finish(f, []byte(text), 0o644)
}

// ReadLast returns the recorded line, re-validated so a tampered or
// corrupt file yields nothing.
func ReadLast(dir string) (codes.Outcome, bool) {
	if safefile.TrustedDir(dir) != nil {
		return codes.Outcome{}, false
	}
	data, err := safefile.Read(filepath.Join(dir, LastFileName), safefile.Options{MaxSize: maxLastSize, NoLinks: true})
	if err != nil {
		return codes.Outcome{}, false
	}
	line := strings.TrimSuffix(strings.TrimSuffix(string(data), "\n"), "\r")
	return codes.ParseLine(line)
}

// LastWritten is when the record in dir was last written. A link is not
// a record (ReadLast refuses one), so a link gives its own time, not its
// target's.
func LastWritten(dir string) (time.Time, error) {
	info, err := os.Lstat(filepath.Join(dir, LastFileName))
	if err != nil {
		return time.Time{}, err
	}
	return info.ModTime(), nil
}

// RemoveLast deletes the record and any pending one, for package removal.
func RemoveLast(dir string) error {
	if err := safefile.TrustedDir(dir); err != nil {
		return err
	}
	os.Remove(filepath.Join(dir, pendingName))
	return os.Remove(filepath.Join(dir, LastFileName))
}
