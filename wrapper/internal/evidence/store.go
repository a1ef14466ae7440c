package evidence

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/result"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/safefile"
)

// FileName is the kept copy, beside the wrapper's last-result record (on
// Windows in the record folder under Program Files, which an MSI
// rollback does not touch).
const FileName = names.EvidenceFile

// maxStoredSize is far more than a cleaned record can take.
const maxStoredSize = 16 << 10

const recordVersion = 1

// Record is what is kept: the line it explains, the result file's stamp,
// and the cleaned evidence.
type Record struct {
	Version     int    `json:"version"`
	Line        string `json:"line"`
	ResultStamp string `json:"result_timestamp"`
	Evidence
}

// Errors from Load.
var (
	// ErrNone means no copy is kept for the recorded line.
	ErrNone = errors.New("no evidence kept for this attempt")
	// ErrNotReadable means the copy exists but this user may not read it.
	ErrNotReadable = errors.New("evidence not readable by this user")
)

// Save replaces the copy in dir atomically. dir must exist: it is the
// record's folder, created and checked when the record was written.
func Save(dir string, r Record) error {
	if info, err := os.Lstat(dir); err != nil || !info.IsDir() {
		return errors.New("evidence: record folder missing")
	}
	r.Version = recordVersion
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return writeAtomic(dir, FileName, append(data, '\n'))
}

// writeAtomic writes a private file (SYSTEM and Administrators only on
// Windows, whatever the folder passes on) so that a reader sees the old
// copy or the new one, never a mix.
func writeAtomic(dir, name string, data []byte) error {
	tmp, err := safefile.CreatePrivateTemp(dir, "."+name+"-")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := safefile.Finish(tmp, data, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), filepath.Join(dir, name))
}

// Remove deletes the copy; a missing copy is not an error.
func Remove(dir string) error {
	err := os.Remove(filepath.Join(dir, FileName))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// Load returns the copy kept for line, cleaned again with the secrets
// known now. A copy written for another line, or older than the record
// (recordTime: the record's modification time), is not for this attempt
// and yields ErrNone, as does a corrupt or oversized one.
func Load(dir, line string, recordTime time.Time, secrets []string) (Record, error) {
	path := filepath.Join(dir, FileName)
	data, err := safefile.Read(path, safefile.Options{MaxSize: maxStoredSize, NoLinks: true})
	switch {
	case errors.Is(err, fs.ErrPermission):
		return Record{}, ErrNotReadable
	case err != nil:
		return Record{}, ErrNone
	}
	info, err := os.Lstat(path)
	if err != nil || info.ModTime().Before(recordTime) {
		return Record{}, ErrNone
	}
	var r Record
	if json.Unmarshal(data, &r) != nil || r.Version != recordVersion || r.Line != line {
		return Record{}, ErrNone
	}
	stamp, ok := result.StampWithin(r.ResultStamp, time.Unix(0, 0), time.Now())
	if !ok {
		return Record{}, ErrNone
	}
	r.ResultStamp = renderStamp(stamp)
	r.Evidence = r.Evidence.Clean(secrets)
	return r, nil
}
