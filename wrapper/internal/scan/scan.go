// Package scan finds ctrld's provisioning identifier line in its output as
// the output streams, in bounded memory whatever ctrld prints.
package scan

import (
	"bytes"
	"sync"

	"github.com/ctrld-install/ctrld-install/internal/codes"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/secret"
)

const (
	// maxLine is how much of one line is held before it is searched and
	// trimmed to its tail.
	maxLine = 64 << 10
	// keepTail must exceed the longest possible identifier, so that a
	// match cut by trimming is still whole in what is kept.
	keepTail = 256
)

const (
	esc = 0x1b
	cr  = '\r'
	lf  = '\n'
)

// Judge collects the identifiers found on several streams. Lines are judged
// in the order they complete, so the last valid line across all streams
// wins.
type Judge struct {
	// Known are the token values the run has seen, set before any stream
	// is written: an identifier whose code holds part of one is not valid
	// (see LastInLine).
	Known []string
	mu    sync.Mutex
	last  codes.Code
	found bool
}

// Last returns the last valid identifier seen, if any.
func (j *Judge) Last() (codes.Code, bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.last, j.found
}

func (j *Judge) offer(c codes.Code) {
	j.mu.Lock()
	j.last, j.found = c, true
	j.mu.Unlock()
}

// NewStream returns a writer for one output stream. Each stream must be
// written by one goroutine at a time; different streams may run in
// parallel.
func (j *Judge) NewStream() *Stream {
	return &Stream{judge: j, line: make([]byte, 0, maxLine)}
}

type escState int

const (
	plain escState = iota
	afterEsc
	inCSI
)

// Stream turns one byte stream into lines with CSI sequences and CR
// removed, and hands every line's last valid identifier to the Judge.
type Stream struct {
	judge   *Judge
	line    []byte
	state   escState
	pending codes.Code
	hasPend bool
}

// Write consumes output. It never fails, so it can sit behind io.Copy.
func (s *Stream) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		switch s.state {
		case afterEsc:
			p = s.afterEscape(p)
		case inCSI:
			p = s.skipCSI(p)
		default:
			p = s.plainText(p)
		}
	}
	return n, nil
}

// Close ends the stream: a final line without a newline still counts.
func (s *Stream) Close() error {
	if s.state == afterEsc {
		s.appendText([]byte{esc})
	}
	s.state = plain
	s.endLine()
	return nil
}

func (s *Stream) plainText(p []byte) []byte {
	i := bytes.IndexAny(p, "\x1b\r\n")
	if i < 0 {
		s.appendText(p)
		return nil
	}
	s.appendText(p[:i])
	switch p[i] {
	case esc:
		s.state = afterEsc
	case lf:
		s.endLine()
	}
	return p[i+1:]
}

func (s *Stream) afterEscape(p []byte) []byte {
	if p[0] == '[' {
		s.state = inCSI
		return p[1:]
	}
	// Only CSI is disregarded; any other escape is ordinary text.
	s.state = plain
	s.appendText([]byte{esc})
	return p
}

// skipCSI drops parameter and intermediate bytes up to the final byte. A
// byte that cannot belong to a CSI ends it and is read as text.
func (s *Stream) skipCSI(p []byte) []byte {
	for i, b := range p {
		switch {
		case b >= 0x20 && b <= 0x3f:
			continue
		case b >= 0x40 && b <= 0x7e:
			s.state = plain
			return p[i+1:]
		default:
			s.state = plain
			return p[i:]
		}
	}
	return nil
}

func (s *Stream) appendText(p []byte) {
	for len(p) > 0 {
		room := maxLine - len(s.line)
		if room <= 0 {
			s.trimLong()
			continue
		}
		k := min(room, len(p))
		s.line = append(s.line, p[:k]...)
		p = p[k:]
	}
}

// trimLong searches a line that grew past maxLine and keeps only its tail,
// where any identifier that is not yet complete must start.
func (s *Stream) trimLong() {
	s.searchLine()
	kept := copy(s.line, s.line[len(s.line)-keepTail:])
	s.line = s.line[:kept]
}

func (s *Stream) endLine() {
	s.searchLine()
	if s.hasPend {
		s.judge.offer(s.pending)
	}
	s.line = s.line[:0]
	s.hasPend = false
}

func (s *Stream) searchLine() {
	if c, ok := LastInLine(s.line, s.judge.Known...); ok {
		s.pending, s.hasPend = c, true
	}
}

var prefix = []byte(codes.FailurePrefix)

// LastInLine returns the last valid identifier in one cleaned line. An
// identifier whose code holds any part of a known token that redaction
// would hide (the token, or a run of secret.MinRun of its characters,
// ignoring case) is not valid.
func LastInLine(line []byte, known ...string) (codes.Code, bool) {
	var last codes.Code
	found := false
	for off := 0; ; {
		i := bytes.Index(line[off:], prefix)
		if i < 0 {
			return last, found
		}
		start := off + i + len(prefix)
		if stage, name, exit, _, ok := codes.ParseFailure(line[start:]); ok {
			if c, ok := codes.ValidFromCtrld(stage, name, exit, true); ok && !secret.Shares(c.Name, known...) {
				last, found = c, true
			}
		}
		off = start
	}
}
