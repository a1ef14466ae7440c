package macos

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/codes"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

func intuneAttribute(t *testing.T) []byte {
	t.Helper()
	script, err := os.ReadFile(filepath.Join(testenv.RepoRoot(), "installers", "macos", "mdm", "intune-custom-attribute.sh"))
	if err != nil {
		t.Fatal(err)
	}
	return script
}

func TestIntuneAttributePassesShellcheck(t *testing.T) {
	testenv.ShellCheck(t, "intune-custom-attribute.sh", intuneAttribute(t))
}

// The Intune custom attribute runs under busybox sh in a chroot with the
// real wrapper at its installed path. Intune stores its stdout as the
// value: the bare recorded line in the one-line grammar, nothing when there
// is no record, and nothing from a tampered record.
func TestIntuneCustomAttribute(t *testing.T) {
	t.Parallel()
	testenv.RequireTool(t, "chroot")
	m := newMacRoot(t, intuneAttribute(t)) // the attribute stands where the postinstall would
	grammar := regexp.MustCompile(codes.LinePattern)
	if out := m.runRaw(); out != "" {
		t.Fatalf("no record: printed %q", out)
	}
	os.MkdirAll(m.path("/etc/controld"), 0o755)
	for _, o := range []codes.Outcome{codes.Success, codes.Failure(codes.ListenerBindFailed), codes.Failure(codes.ProfilePrefsMissing)} {
		m.write("/etc/controld/ctrld-install-last-result", []byte(o.Line()+"\n"), 0o644)
		out := m.runRaw()
		if out != o.Line()+"\n" || !grammar.MatchString(strings.TrimSuffix(out, "\n")) {
			t.Fatalf("printed %q, want %q", out, o.Line())
		}
	}
	for _, tampered := range []string{
		"provisioning complete (exit 0) " + testenv.Canary + "\n",
		"<result>provisioning complete (exit 0)</result>\n",
		"provisioning failed: stage=listener code=LISTENER_BIND_FAILED (exit 52)\n",
	} {
		m.write("/etc/controld/ctrld-install-last-result", []byte(tampered), 0o644)
		if out := m.runRaw(); out != "" {
			t.Fatalf("tampered record %q printed %q", tampered, out)
		}
	}
}
