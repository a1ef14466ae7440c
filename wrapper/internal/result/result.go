// Package result reads ctrld's provision_result.json, trusting it only when
// it is a fresh, small, regular file whose fields agree with the code table.
package result

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/codes"
	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/safefile"
)

// FileName is the name ctrld gives the file in its home dir.
const FileName = names.ResultFile

// MaxSize caps what is read; a larger file is not trusted.
const MaxSize = 64 << 10

// MaxClockSkew is how far in the future a timestamp may lie and still be
// trusted: ctrld and the wrapper read the same clock, so only rounding and
// a clock step during the attempt can put ctrld's stamp ahead of ours.
const MaxClockSkew = 5 * time.Second

// file is ctrld's result file, schema version 1. message and detail are
// kept undecoded: the decision never reads them, and a file whose free
// text does not parse is still trusted for its code.
type file struct {
	Timestamp string          `json:"timestamp"`
	Stage     string          `json:"stage"`
	Code      string          `json:"code"`
	ExitCode  int             `json:"exit_code"`
	Message   json.RawMessage `json:"message"`
	Detail    json.RawMessage `json:"detail"`
}

// Trusted is a result file the wrapper trusts for an attempt: the table's
// code and the file's stamp, and apart from them ctrld's free text, still
// undecoded.
type Trusted struct {
	Code            codes.Code
	Stamp           time.Time
	message, detail json.RawMessage
}

// FreeText is what ctrld wrote for people: its message and the listen
// addresses it tried. It is untrusted and unbounded (up to MaxSize): it
// only ever goes into the evidence copy, which bounds and redacts it.
type FreeText struct {
	Message  string
	Attempts []Attempt
}

// Attempt is one listen address ctrld tried, as detail.attempts lists it.
type Attempt struct {
	Addr    string `json:"addr"`
	Proto   string `json:"proto"`
	OSError string `json:"os_error"`
}

// ErrUntrusted explains why a result file was passed over.
var ErrUntrusted = errors.New("result file not trusted")

// errText means the trusted file's message or detail does not parse.
var errText = errors.New("result file's message or detail not readable")

// Read returns the code recorded in home's result file when Load trusts
// it. Only stage, code and exit are read.
func Read(home string, attemptStart time.Time) (codes.Code, error) {
	t, err := Load(home, attemptStart)
	return t.Code, err
}

// Load returns home's result file when it is a regular file (not a link)
// of at most MaxSize bytes, stamped within StampWithin(attemptStart), with
// a stage, code and exit that match the table.
func Load(home string, attemptStart time.Time) (Trusted, error) {
	return load(home, attemptStart, time.Now())
}

func load(home string, attemptStart, now time.Time) (Trusted, error) {
	path := filepath.Join(home, FileName)
	data, err := safefile.Read(path, safefile.Options{MaxSize: MaxSize, NoLinks: true})
	if errors.Is(err, safefile.ErrRefused) {
		return Trusted{}, ErrUntrusted
	}
	if err != nil {
		return Trusted{}, err
	}
	var f file
	if err := json.Unmarshal(data, &f); err != nil {
		return Trusted{}, ErrUntrusted
	}
	stamp, ok := StampWithin(f.Timestamp, attemptStart, now)
	if !ok {
		return Trusted{}, ErrUntrusted
	}
	c, ok := codes.ValidFromCtrld(f.Stage, f.Code, f.ExitCode, false)
	if !ok {
		return Trusted{}, ErrUntrusted
	}
	return Trusted{Code: c, Stamp: stamp, message: f.Message, detail: f.Detail}, nil
}

// StampWithin parses an RFC 3339 stamp and checks, to the second (the
// precision ctrld writes), that it is no earlier than notBefore and no
// later than now plus MaxClockSkew. The stamp comes back in UTC.
func StampWithin(s string, notBefore, now time.Time) (time.Time, bool) {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil || t.Unix() < notBefore.Unix() || t.Unix() > now.Add(MaxClockSkew).Unix() {
		return time.Time{}, false
	}
	return t.UTC(), true
}

// FreeText decodes the file's message and detail.attempts. It fails when
// either is there but not of ctrld's shape.
func (t Trusted) FreeText() (FreeText, error) {
	var out FreeText
	var detail struct {
		Attempts []Attempt `json:"attempts"`
	}
	if decode(t.message, &out.Message) != nil || decode(t.detail, &detail) != nil {
		return FreeText{}, errText
	}
	out.Attempts = detail.Attempts
	return out, nil
}

// decode leaves v as it is for a field the file left out.
func decode(raw json.RawMessage, v any) error {
	if len(raw) == 0 {
		return nil
	}
	return json.Unmarshal(raw, v)
}
