// Package msiexec is the wrapper's Intune Win32 / RMM mode: it runs
// msiexec on the ctrld MSI itself and turns the result into the stage code
// the MSI's custom action recorded, so the code reaches the Intune console
// (a plain MSI can only ever report 1603).
package msiexec

import (
	"context"
	"path/filepath"
	"strings"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/codes"
	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/record"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/safefile"
)

// Windows Installer exit codes passed through unchanged.
const (
	Success         = 0
	Failure         = 1603
	AlreadyRunning  = 1618
	RebootStarted   = 1641
	RebootRequired  = 3010
	LogFileName     = names.MsiexecLogFile
	maxPropertyName = 72
)

var passThrough = map[int]bool{Success: true, AlreadyRunning: true, RebootStarted: true, RebootRequired: true}

// Runner runs msiexec and returns its exit code; err only when it could
// not run at all.
type Runner func(ctx context.Context, args []string) (int, error)

// Install describes one run.
type Install struct {
	MSI        string
	Properties []string // PROPERTY=value
	// RecordDir holds the last-result file the custom action writes.
	RecordDir string
	// LogDir receives msiexec's verbose log: a folder only administrators
	// can write (the record folder).
	LogDir string
	Run    Runner
	Now    func() time.Time
}

// ValidProperty accepts PROPERTY=value with a public (upper-case) name:
// [A-Z_][A-Z0-9_.]* of at most maxPropertyName characters.
func ValidProperty(p string) bool {
	name, _, ok := strings.Cut(p, "=")
	if !ok || name == "" || len(name) > maxPropertyName || !propertyStart(name[0]) {
		return false
	}
	for i := 1; i < len(name); i++ {
		if !propertyStart(name[i]) && !(name[i] >= '0' && name[i] <= '9') && name[i] != '.' {
			return false
		}
	}
	return true
}

func propertyStart(c byte) bool { return c >= 'A' && c <= 'Z' || c == '_' }

// Do runs msiexec and returns the exit code for the caller and the
// recorded outcome of this attempt, if the custom action wrote one.
func (in Install) Do(ctx context.Context) (int, codes.Outcome, bool) {
	began := in.Now().Truncate(time.Second)
	log := filepath.Join(in.LogDir, LogFileName)
	if err := newLog(log); err != nil {
		return Failure, codes.Outcome{}, false
	}
	args := append([]string{"/i", in.MSI, "/qn", "/norestart", "/l*v", log}, in.Properties...)
	code, err := in.Run(ctx, args)
	if err != nil {
		return Failure, codes.Outcome{}, false
	}
	outcome, fresh := in.record(began)
	return exitCode(code, outcome, fresh), outcome, fresh
}

// newLog creates the log empty and private before msiexec writes it:
// msiexec then writes into that file, whose security descriptor stays,
// instead of one that takes what the folder passes on (Users read).
func newLog(path string) error {
	f, err := safefile.CreatePrivate(path)
	if err != nil {
		return err
	}
	return f.Close()
}

// exitCode passes Windows Installer's success, reboot and busy codes
// through; any other failure becomes the recorded stage code when this
// attempt recorded one, else 1603.
func exitCode(msiexec int, o codes.Outcome, fresh bool) int {
	if passThrough[msiexec] {
		return msiexec
	}
	if fresh && !o.OK {
		return o.Exit()
	}
	return Failure
}

// record reads the last-result file if this attempt wrote it.
func (in Install) record(began time.Time) (codes.Outcome, bool) {
	written, err := record.LastWritten(in.RecordDir)
	if err != nil || written.Before(began) {
		return codes.Outcome{}, false
	}
	return record.ReadLast(in.RecordDir)
}
