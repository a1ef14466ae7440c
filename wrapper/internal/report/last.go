// Package report sends the one line where admins look for it: stdout, the
// last-result file, and the OS log.
package report

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/ctrld-install/ctrld-install/contract"
	"github.com/ctrld-install/ctrld-install/wrapper/codes"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/safefile"
)

// LastFileName is the last-result file, kept in the ctrld home dir (under
// ProgramData on Windows).
const LastFileName = contract.LastResultFile

// maxLastSize is more than any valid line needs.
const maxLastSize = 512

// pendingName is the record being written; under the lock only one run
// writes it, and a run killed midway leaves at most this one file, which
// the next run overwrites. Where the OS can swap two names, it holds the
// previous record after a commit, if that was a line the wrapper wrote,
// until the next run.
const pendingName = contract.PendingResultFile

// Guard is how the OS makes the record folder and judges the one there
// (platform.OS is one): on Windows any user could have made it first.
type Guard interface {
	// PrepareRecordDir creates the folder, or takes it back, before
	// anything is written in it.
	PrepareRecordDir(dir string) error
	// CheckRecordDir reports why the folder is not to be trusted, without
	// creating or changing it.
	CheckRecordDir(dir string) error
}

// SaveLast records the line atomically and durably: a reader sees the old
// line or the new one, never a mix, and a line once visible survives a
// power cut.
func SaveLast(g Guard, dir string, o codes.Outcome) error {
	return Prepare(g, dir, o).Commit()
}

// Pending is a record written and flushed to disk ahead of time; only
// Commit makes it the record. Flushing is the slow part of recording, so
// a caller that can guess the outcome prepares it while it works and
// pays only the move at the end.
type Pending struct {
	guard   Guard
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
// background. Nothing is written in a folder g's PrepareRecordDir
// refuses.
func Prepare(g Guard, dir string, o codes.Outcome) *Pending {
	p := &Pending{guard: g, dir: dir, outcome: o, flushed: make(chan prepared, 1)}
	go func() {
		err := writePending(g, dir, o.Line()+"\n")
		_, valid := ReadLast(g, dir)
		p.flushed <- prepared{err: err, keepAside: valid}
	}()
	return p
}

// Commit waits for the flush and moves the pending file over the
// record. When that fails the old record is removed too, so that `last`
// cannot go on reporting an older attempt; a refused folder is left as
// it is.
func (p *Pending) Commit() error {
	err := p.commit()
	if err != nil && p.guard.CheckRecordDir(p.dir) == nil {
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
	return SaveLast(p.guard, p.dir, o)
}

func writePending(g Guard, dir, text string) error {
	if err := g.PrepareRecordDir(dir); err != nil {
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
func ReadLast(g Guard, dir string) (codes.Outcome, bool) {
	if g.CheckRecordDir(dir) != nil {
		return codes.Outcome{}, false
	}
	data, err := safefile.Read(filepath.Join(dir, LastFileName), safefile.Options{MaxSize: maxLastSize, NoLinks: true})
	if err != nil {
		return codes.Outcome{}, false
	}
	line := strings.TrimSuffix(strings.TrimSuffix(string(data), "\n"), "\r")
	return codes.ParseLine(line)
}

// RemoveLast deletes the record and any pending one, for package removal;
// never inside a folder a user controls.
func RemoveLast(g Guard, dir string) error {
	if err := g.CheckRecordDir(dir); err != nil {
		return err
	}
	os.Remove(filepath.Join(dir, pendingName))
	return os.Remove(filepath.Join(dir, LastFileName))
}
