package cli

import (
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/settings"
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

// Every setting of the table has its flag, which sets that setting; a
// Bool setting given false is left to the managed settings.
func TestStartTakesEverySettingAsAFlag(t *testing.T) {
	for _, st := range settings.Table {
		var in provision.Input
		value := "flag-value"
		if st.Kind == settings.Bool {
			value = "1"
		}
		if err := parseFlags(newStartFlagSet(&in), []string{"--" + st.Flag + "=" + value}); err != nil {
			t.Fatalf("--%s: %v", st.Flag, err)
		}
		if v, ok := in.Flags.Get(st.Key); !ok || st.Kind == settings.Text && v != value || st.Kind == settings.Bool && v != "true" {
			t.Errorf("--%s=%s gives %s %q", st.Flag, value, st.Key, v)
		}
		if len(in.Flags) != 1 {
			t.Errorf("--%s sets %v", st.Flag, in.Flags)
		}
		if st.Kind != settings.Bool {
			continue
		}
		if err := parseFlags(newStartFlagSet(&in), []string{"--" + st.Flag, "--" + st.Flag + "=false"}); err != nil || len(in.Flags) != 0 {
			t.Errorf("--%s=false sets %v, %v", st.Flag, in.Flags, err)
		}
	}
}
