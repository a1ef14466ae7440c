package realctrld

import (
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// checkCanary fails the test when the canary token shows anywhere the
// scenario could leak it: a step's output (ctrld's own secret steps
// aside), syslog, any process's argv or environment at the end, any file
// written in the overlays (package databases and logs included) except
// the inputs named (paths inside, such as the settings file).
func (s *sandbox) checkCanary(t *testing.T, inputs ...string) {
	t.Helper()
	r := s.Report
	for _, st := range r.Steps {
		if st.Secret {
			continue
		}
		if strings.Contains(st.Stdout+st.Stderr, testenv.Canary) {
			t.Errorf("%s: the token is in the output of step %s", s.Name, st.Name)
		}
	}
	for _, m := range r.Syslog {
		if strings.Contains(m, testenv.Canary) {
			t.Errorf("%s: the token is in syslog: %q", s.Name, redact(m))
		}
	}
	all := append([]process{}, r.Processes...)
	for _, procs := range r.ProcessSnapshots {
		all = append(all, procs...)
	}
	for _, p := range all {
		if strings.Contains(strings.Join(p.Argv, " ")+strings.Join(p.Environ, " "), testenv.Canary) {
			t.Errorf("%s: the token is in the argv or environment of process %d (%s)", s.Name, p.Pid, redact(strings.Join(p.Argv, " ")))
		}
	}
	var except []string
	for _, in := range inputs {
		except = append(except, s.upperDir()+in)
	}
	for _, f := range testenv.FilesWithCanary(s.upperDir(), except...) {
		t.Errorf("%s: the token is in a file written inside: %s", s.Name, strings.TrimPrefix(f, s.upperDir()))
	}
}

// tokenPlaceholder replaces the token in recorded ctrld output.
const tokenPlaceholder = "<PROVISION_TOKEN>"

// redact replaces the canary token with the placeholder.
func redact(s string) string { return strings.ReplaceAll(s, testenv.Canary, tokenPlaceholder) }
