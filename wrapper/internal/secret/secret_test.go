package secret

import (
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
