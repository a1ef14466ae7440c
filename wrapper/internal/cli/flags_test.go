package cli

import (
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/wrapper/internal/provision"
)

func TestUsageErrorsNeverEchoUnknownWords(t *testing.T) {
	const tok = "abcdefghij"
	for _, args := range [][]string{{"--" + tok}, {"-" + tok + "=x"}, {"--timeout", tok}, {tok}} {
		var in provision.Input
		err := parseFlags(newStartFlagSet(&in), args)
		if err == nil || strings.Contains(err.Error(), tok) {
			t.Errorf("%q: %v", args, err)
		}
	}
	var in provision.Input
	err := parseFlags(newStartFlagSet(&in), []string{"--timeout", "soon"})
	if err == nil || !strings.Contains(err.Error(), "--timeout") {
		t.Errorf("a known flag should be named: %v", err)
	}
}
