package secret

import (
	"errors"
	"strings"
	"testing"
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
