package secret

import (
	"errors"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

const tok = "org-v1-canary-0d3f9a7c2b"

func TestEchoRedactsBeforeCutting(t *testing.T) {
	long := strings.Repeat("x", 70) + tok + "\x1b[31m\n"
	got := Echo(long, tok)
	if strings.Contains(got, tok) || strings.Contains(got, tok[:8]) {
		t.Fatalf("token or part of it survived: %q", got)
	}
	for _, c := range got {
		if c < 0x20 || c >= 0x7f {
			t.Fatalf("control character kept: %q", got)
		}
	}
	if Echo("plain", "") != "plain" {
		t.Fatal("empty secret changed the text")
	}
}

func TestReasonKeepsPathsAndRedacts(t *testing.T) {
	path := "/" + strings.Repeat("deep/", 30) + "home"
	got := Reason(errors.New("mkdir "+path+": "+tok+": not a directory"), tok)
	if !strings.Contains(got, path) || !strings.HasSuffix(got, "[redacted]: not a directory") {
		t.Fatalf("got %q", got)
	}
	if long := Reason(errors.New(strings.Repeat("x", 4096))); len(long) > maxReason+3 {
		t.Fatalf("reason not bounded: %d bytes", len(long))
	}
}

func TestDescribeNeverQuotes(t *testing.T) {
	v := tok + "\"\\ \x01\xff"
	got := Describe(v)
	if strings.Contains(got, tok) || strings.Contains(got, "canary") {
		t.Fatalf("Describe quoted the value: %q", got)
	}
	want := "29 bytes of letters, digits, punctuation, quotes, backslashes, spaces, control characters, non-ASCII bytes"
	if got != want {
		t.Fatalf("Describe = %q, want %q", got, want)
	}
	if got := Describe(""); got != "empty" {
		t.Fatalf("Describe(\"\") = %q", got)
	}
}

// A short token that begins a longer one must not leave the rest of the
// longer one behind, whichever order the tokens come in.
func TestRedactPrefixTokensLeaveNothing(t *testing.T) {
	short := testenv.Canary[:14]
	long := testenv.Canary + "-and-a-longer-tail"
	msg := "tried " + long + " and " + short + " then " + long
	for _, order := range [][]string{{short, long}, {long, short}} {
		got := Redact(msg, order...)
		if testenv.HoldsPartOf([]byte(got), long) || testenv.HoldsPartOf([]byte(got), short) {
			t.Fatalf("order %q: a part survived: %q", order, got)
		}
		if got != "tried [redacted] and [redacted] then [redacted]" {
			t.Fatalf("order %q: %q", order, got)
		}
	}
}

// A run of a dozen or more of a token's characters, in any case, goes
// too; a shorter run stays, so ordinary words are not lost.
func TestRedactRunsIgnoringCase(t *testing.T) {
	run := strings.ToUpper(testenv.CodeCanary[2:16])
	got := Redact("code="+run+" ok", testenv.CodeCanary)
	if got != "code=[redacted] ok" {
		t.Fatalf("a run of %d characters survived: %q", len(run), got)
	}
	short := strings.ToUpper(testenv.CodeCanary[:MinRun-1])
	if got := Redact("code="+short, testenv.CodeCanary); got != "code="+short {
		t.Fatalf("a run shorter than %d went: %q", MinRun, got)
	}
	if !Shares(run, testenv.CodeCanary) || Shares(short, testenv.CodeCanary) {
		t.Fatal("Shares disagrees with Redact")
	}
	if got := Echo("mode "+strings.ToUpper(testenv.Canary), testenv.Canary); testenv.HoldsPartOf([]byte(got), testenv.Canary) {
		t.Fatalf("Echo kept an upper-cased token: %q", got)
	}
}
