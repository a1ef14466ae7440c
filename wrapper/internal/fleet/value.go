package fleet

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/ctrld-install/ctrld-install/internal/codes"
)

// reading is what one value (a CSV cell, a log line) says.
type reading int

const (
	readOutcome   reading = iota // a result: success or a code of the table
	readEmpty                    // nothing: the device has not reported
	readOtherCode                // an exit or error code outside the table
	readNone                     // text holding no result at all
	readBroken                   // text that names a result but cannot be read
)

var (
	successLine   = []byte(codes.Success.Line())
	failurePrefix = []byte(codes.FailurePrefix)
)

// resultIn finds the last result line inside text (a log line carries a
// time and a host before it). Only codes of the table count: the outcome
// is rebuilt from the table, so nothing of the text is ever kept.
func resultIn(text []byte) (codes.Outcome, reading) {
	var last codes.Outcome
	got := readNone
	for i := 0; i < len(text); {
		rest := text[i:]
		j := bytes.Index(rest, []byte("provisioning "))
		if j < 0 {
			break
		}
		rest = rest[j:]
		i += j + 1
		if bytes.HasPrefix(rest, successLine) {
			last, got = codes.Success, readOutcome
			continue
		}
		after, ok := bytes.CutPrefix(rest, failurePrefix)
		if !ok {
			continue
		}
		if c, ok := tableFailure(after); ok {
			last, got = codes.Failure(c), readOutcome
		} else if got != readOutcome {
			got = readBroken
		}
	}
	return last, got
}

// tableFailure reads `<stage> code=<CODE> (exit <N>)` and accepts it only
// when all three agree with one row of the table.
func tableFailure(b []byte) (codes.Code, bool) {
	stage, name, exit, _, ok := codes.ParseFailure(b)
	if !ok {
		return codes.Code{}, false
	}
	c, ok := codes.Lookup(name)
	if !ok || c.Stage != stage || c.Exit != exit {
		return codes.Code{}, false
	}
	return c, true
}

// exitIn reads a value of an exit or error code column: decimal, or hex
// with 0x as Intune writes it.
func exitIn(value []byte) (codes.Outcome, reading) {
	s := strings.TrimSpace(string(value))
	if s == "" {
		return codes.Outcome{}, readEmpty
	}
	n, ok := parseCode(s)
	if !ok {
		return codes.Outcome{}, readNone
	}
	if n == 0 {
		return codes.Success, readOutcome
	}
	if c, ok := codes.ByExit(int(n)); ok {
		return codes.Failure(c), readOutcome
	}
	return codes.Outcome{}, readOtherCode
}

func parseCode(s string) (int64, bool) {
	if len(s) > 24 {
		return 0, false
	}
	if hex, ok := strings.CutPrefix(strings.ToLower(s), "0x"); ok {
		n, err := strconv.ParseUint(hex, 16, 32)
		return int64(n), err == nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}

// valueIn reads a cell of the chosen column: a result line, else a code.
func valueIn(cell []byte) (codes.Outcome, reading) {
	if len(bytes.TrimSpace(cell)) == 0 {
		return codes.Outcome{}, readEmpty
	}
	if o, r := resultIn(cell); r != readNone {
		return o, r
	}
	o, r := exitIn(cell)
	if r == readNone {
		return o, readBroken
	}
	return o, r
}
