package codes

import (
	"bytes"
	"strconv"
)

// Outcome is what the wrapper reports: success, or one code.
type Outcome struct {
	Code Code
	OK   bool
}

// Success is the outcome of a completed provisioning.
var Success = Outcome{OK: true}

// Failure reports one code.
func Failure(c Code) Outcome { return Outcome{Code: c} }

// Exit is the process exit code for the outcome.
func (o Outcome) Exit() int {
	if o.OK {
		return 0
	}
	return o.Code.Exit
}

// The two forms of the one line.
const (
	successLine = "provisioning complete (exit 0)"
	// FailurePrefix starts a failure line; ctrld prints the same.
	FailurePrefix = "provisioning failed: stage="
)

// Line renders the one line. It is built only from validated fields, never
// copied from ctrld's output, so it cannot carry anything else.
func (o Outcome) Line() string {
	if o.OK {
		return successLine
	}
	return FailurePrefix + o.Code.Stage + " code=" + o.Code.Name + " (exit " + strconv.Itoa(o.Code.Exit) + ")"
}

// LinePattern is the grammar of the one line, as a regular expression
// admins and tests can use. ParseLine and ParseFailure implement the same
// grammar without it; a test holds the two together.
const LinePattern = `^(provisioning complete \(exit 0\)|provisioning failed: stage=(input|bootstrap|listener|service|package) code=[A-Z_]+ \(exit [1-9][0-9]?\))$`

// ParseLine reads a line the wrapper wrote earlier (the last-result file)
// and re-validates it, so a tampered file prints nothing.
func ParseLine(s string) (Outcome, bool) {
	if s == successLine {
		return Success, true
	}
	b, ok := bytes.CutPrefix([]byte(s), []byte(FailurePrefix))
	if !ok {
		return Outcome{}, false
	}
	stage, name, exit, rest, ok := ParseFailure(b)
	if !ok || len(rest) != 0 {
		return Outcome{}, false
	}
	if stage == StagePackage {
		c, ok := Lookup(name)
		if !ok || c.Stage != StagePackage || c.Exit != exit {
			return Outcome{}, false
		}
		return Failure(c), true
	}
	c, ok := ValidFromCtrld(stage, name, exit, true)
	if !ok {
		return Outcome{}, false
	}
	return Failure(c), true
}

// ParseFailure reads what follows FailurePrefix, `<stage> code=<CODE>
// (exit <N>)`, and returns the fields and the bytes after the closing
// parenthesis. It checks only the grammar; the caller validates the
// fields against the table.
func ParseFailure(b []byte) (stage, name string, exit int, rest []byte, ok bool) {
	stage, b = takeWhile(b, isLower, 16)
	b, ok = expect(b, " code=")
	if !ok || stage == "" {
		return "", "", 0, nil, false
	}
	name, b = takeWhile(b, isCodeChar, MaxCodeLen+1)
	b, ok = expect(b, " (exit ")
	if !ok || name == "" || len(name) > MaxCodeLen {
		return "", "", 0, nil, false
	}
	exit, b, ok = exitNumber(b)
	if !ok {
		return "", "", 0, nil, false
	}
	rest, ok = expect(b, ")")
	if !ok {
		return "", "", 0, nil, false
	}
	return stage, name, exit, rest, true
}

// exitNumber reads one or two digits without a leading zero, exactly as
// ctrld's %d prints an exit code from 1 to 99.
func exitNumber(b []byte) (int, []byte, bool) {
	digits, rest := takeWhile(b, isDigit, 3)
	if len(digits) == 0 || len(digits) > 2 || digits[0] == '0' {
		return 0, b, false
	}
	n := 0
	for _, d := range digits {
		n = n*10 + int(d-'0')
	}
	return n, rest, true
}

func takeWhile(b []byte, ok func(byte) bool, limit int) (string, []byte) {
	i := 0
	for i < len(b) && i < limit && ok(b[i]) {
		i++
	}
	return string(b[:i]), b[i:]
}

func expect(b []byte, lit string) ([]byte, bool) {
	if !bytes.HasPrefix(b, []byte(lit)) {
		return b, false
	}
	return b[len(lit):], true
}

func isLower(c byte) bool    { return c >= 'a' && c <= 'z' }
func isDigit(c byte) bool    { return c >= '0' && c <= '9' }
func isCodeChar(c byte) bool { return c >= 'A' && c <= 'Z' || c == '_' }

// validName is the code grammar, [A-Z_]+ of at most MaxCodeLen.
func validName(name string) bool {
	if name == "" || len(name) > MaxCodeLen {
		return false
	}
	for i := 0; i < len(name); i++ {
		if !isCodeChar(name[i]) {
			return false
		}
	}
	return true
}
