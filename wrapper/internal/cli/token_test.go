package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadTokenFile(t *testing.T) {
	dir := t.TempDir()
	for body, want := range map[string]string{
		"abc\n": "abc", "abc\r\n": "abc", "abc": "abc", "abc\n\n": "abc\n", "\n": "", "": "", " abc\n": " abc",
	} {
		p := filepath.Join(dir, "tok")
		os.WriteFile(p, []byte(body), 0o600)
		got, err := readTokenFile(p)
		if err != nil || got != want {
			t.Errorf("%q: got %q, %v", body, got, err)
		}
	}
	big := filepath.Join(dir, "big")
	os.WriteFile(big, []byte(strings.Repeat("a", maxTokenFile+1)), 0o600)
	if _, err := readTokenFile(big); err == nil {
		t.Error("oversized token file accepted")
	}
}

func TestUsageErrorsNeverEchoUnknownWords(t *testing.T) {
	const tok = "abcdefghij"
	for _, args := range [][]string{{"--" + tok}, {"-" + tok + "=x"}, {"--timeout", tok}, {tok}} {
		var f startFlags
		err := parseFlags(newStartFlagSet(&f), args)
		if err == nil || strings.Contains(err.Error(), tok) {
			t.Errorf("%q: %v", args, err)
		}
	}
	var f startFlags
	err := parseFlags(newStartFlagSet(&f), []string{"--timeout", "soon"})
	if err == nil || !strings.Contains(err.Error(), "--timeout") {
		t.Errorf("a known flag should be named: %v", err)
	}
}
