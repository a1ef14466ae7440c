// Package result reads ctrld's provision_result.json, trusting it only when
// it is a fresh, small, regular file whose fields agree with the code table.
package result

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"time"

	"github.com/ctrld-install/ctrld-install/contract"
	"github.com/ctrld-install/ctrld-install/wrapper/codes"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/safefile"
)

// FileName is the name ctrld gives the file in its home dir.
const FileName = contract.ResultFile

// MaxSize caps what is read; a larger file is not trusted.
const MaxSize = 64 << 10

// MaxClockSkew is how far in the future a timestamp may lie and still be
// trusted: ctrld and the wrapper read the same clock, so only rounding and
// a clock step during the attempt can put ctrld's stamp ahead of ours.
const MaxClockSkew = 5 * time.Second

// file holds only the fields the wrapper uses. message and detail are
// never decoded, so they can never leave the file.
type file struct {
	Timestamp string `json:"timestamp"`
	Stage     string `json:"stage"`
	Code      string `json:"code"`
	ExitCode  int    `json:"exit_code"`
}

// ErrUntrusted explains why a result file was passed over.
var ErrUntrusted = errors.New("result file not trusted")

// Read returns the code recorded in home's result file when the file is a
// regular file (not a link) of at most MaxSize bytes, stamped at or after
// attemptStart (to the second) and not after now plus MaxClockSkew, with a
// stage, code and exit that match the table.
func Read(home string, attemptStart time.Time) (codes.Code, error) {
	return read(home, attemptStart, time.Now())
}

func read(home string, attemptStart, now time.Time) (codes.Code, error) {
	path := filepath.Join(home, FileName)
	data, err := safefile.Read(path, safefile.Options{MaxSize: MaxSize, NoLinks: true})
	if errors.Is(err, safefile.ErrRefused) {
		return codes.Code{}, ErrUntrusted
	}
	if err != nil {
		return codes.Code{}, err
	}
	var f file
	if err := json.Unmarshal(data, &f); err != nil {
		return codes.Code{}, ErrUntrusted
	}
	stamp, err := time.Parse(time.RFC3339, f.Timestamp)
	if err != nil || stamp.Unix() < attemptStart.Unix() || stamp.After(now.Add(MaxClockSkew)) {
		return codes.Code{}, ErrUntrusted
	}
	c, ok := codes.ValidFromCtrld(f.Stage, f.Code, f.ExitCode, false)
	if !ok {
		return codes.Code{}, ErrUntrusted
	}
	return c, nil
}
