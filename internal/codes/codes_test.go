package codes

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Exit values that already mean something to installers and MDMs.
var reserved = map[int]string{
	0: "success", 1: "generic failure", 2: "usage", 3: "ctrld status not ready",
	126: "deactivation pin", 1618: "another install in progress", 1641: "reboot initiated",
	1707: "MSI success", 3010: "reboot required",
}

func TestTableIsConsistent(t *testing.T) {
	names := map[string]bool{}
	exits := map[int]string{}
	for _, c := range Table {
		if names[c.Name] {
			t.Errorf("code %s listed twice", c.Name)
		}
		names[c.Name] = true
		if other, dup := exits[c.Exit]; dup {
			t.Errorf("exit %d used by %s and %s", c.Exit, other, c.Name)
		}
		exits[c.Exit] = c.Name
		r, ok := StageRange(c.Stage)
		if !ok {
			t.Errorf("%s: unknown stage %q", c.Name, c.Stage)
		}
		if !r.Contains(c.Exit) {
			t.Errorf("%s: exit %d outside stage %s range %v", c.Name, c.Exit, c.Stage, r)
		}
		if what, clash := reserved[c.Exit]; clash {
			t.Errorf("%s: exit %d collides with %s", c.Name, c.Exit, what)
		}
		if !regexp.MustCompile(`^[A-Z_]+$`).MatchString(c.Name) || len(c.Name) > MaxCodeLen {
			t.Errorf("%s: name outside the code grammar", c.Name)
		}
		if c.Meaning == "" {
			t.Errorf("%s: no meaning", c.Name)
		}
	}
}

func TestStageRangesDoNotOverlap(t *testing.T) {
	for i, a := range StageRanges {
		for _, b := range StageRanges[i+1:] {
			if a.Range.Min <= b.Range.Max && b.Range.Min <= a.Range.Max {
				t.Errorf("stages %s and %s overlap", a.Stage, b.Stage)
			}
		}
	}
}

func TestLinesRoundTrip(t *testing.T) {
	grammar := regexp.MustCompile(LinePattern)
	all := append([]Outcome{Success}, func() []Outcome {
		var o []Outcome
		for _, c := range Table {
			o = append(o, Failure(c))
		}
		return o
	}()...)
	for _, o := range all {
		line := o.Line()
		if !grammar.MatchString(line) {
			t.Errorf("%q does not match the line grammar", line)
		}
		back, ok := ParseLine(line)
		if !ok || back != o {
			t.Errorf("ParseLine(%q) = %+v, %v", line, back, ok)
		}
		// The exit the line prints is the exit the process returns.
		if want := "(exit " + strconv.Itoa(o.Exit()) + ")"; !strings.HasSuffix(line, want) {
			t.Errorf("%q does not end in %q", line, want)
		}
	}
}

func TestParseLineRejectsTampering(t *testing.T) {
	for _, s := range []string{
		"",
		"provisioning complete (exit 0) ",
		"provisioning failed: stage=package code=CTRLD_TIMEOUT (exit 64)",
		"provisioning failed: stage=package code=SOMETHING_NEW (exit 60)",
		"provisioning failed: stage=listener code=LISTENER_BIND_FAILED (exit 41) org-v1-secret",
		"provisioning failed: stage=listener code=LISTENER_BIND_FAILED (exit 41)\nmore",
	} {
		if o, ok := ParseLine(s); ok {
			t.Errorf("ParseLine(%q) accepted as %+v", s, o)
		}
	}
}

// The regular expression admins use and the parser the wrapper uses are
// one grammar: on every line, both accept or both refuse. (ParseLine also
// checks the fields against the table, so only lines with table codes or
// unknown ctrld codes are compared.)
func TestLinePatternAgreesWithParser(t *testing.T) {
	grammar := regexp.MustCompile(LinePattern)
	for _, s := range []string{
		"provisioning complete (exit 0)",
		"provisioning complete (exit 1)",
		"provisioning failed: stage=listener code=LISTENER_BIND_FAILED (exit 41)",
		"provisioning failed: stage=bootstrap code=TOKEN_REVOKED (exit 37)",
		"provisioning failed: stage=listener code=LISTENER_BIND_FAILED (exit 041)",
		"provisioning failed: stage=listener code=LISTENER_BIND_FAILED (exit 41",
		"provisioning failed: stage=listener code=listener_bind_failed (exit 41)",
		"provisioning failed: stage=listener  code=LISTENER_BIND_FAILED (exit 41)",
		"provisioning failed: stage=listener code=LISTENER_BIND_FAILED (exit 41)x",
		"provisioning failed: stage=listener code= (exit 41)",
		"provisioning failed: stage= code=LISTENER_BIND_FAILED (exit 41)",
		"provisioning failed: stage=input code=INPUT_NEW (exit 29)",
	} {
		_, parsed := ParseLine(s)
		if matched := grammar.MatchString(s); matched != parsed {
			t.Errorf("%q: pattern %v, parser %v", s, matched, parsed)
		}
	}
}

func TestValidFromCtrld(t *testing.T) {
	tests := []struct {
		stage, name  string
		exit         int
		allowUnknown bool
		want         bool
	}{
		{"listener", "LISTENER_BIND_FAILED", 41, false, true},
		{"listener", "LISTENER_BIND_FAILED", 42, true, false},
		{"bootstrap", "TOKEN_REVOKED", 37, true, true},
		{"bootstrap", "TOKEN_REVOKED", 37, false, false},
		{"package", "CTRLD_TIMEOUT", 63, true, false},
		{"input", "NEW", 29, true, true},
		{"input", "NEW", 30, true, false},
		{"service", "", 55, true, false},
	}
	for _, tc := range tests {
		_, got := ValidFromCtrld(tc.stage, tc.name, tc.exit, tc.allowUnknown)
		if got != tc.want {
			t.Errorf("ValidFromCtrld(%q, %q, %d, %v) = %v", tc.stage, tc.name, tc.exit, tc.allowUnknown, got)
		}
	}
}

func TestByExitOnlyForTableCodes(t *testing.T) {
	if c, ok := ByExit(41); !ok || c != ListenerBindFailed {
		t.Fatalf("ByExit(41) = %+v %v", c, ok)
	}
	if _, ok := ByExit(43); ok {
		t.Fatal("ByExit(43) found a code")
	}
}
