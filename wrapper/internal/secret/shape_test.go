package secret

import (
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

func TestRemoveTokenShaped(t *testing.T) {
	for in, want := range map[string]string{
		"/usr/local/bin/ctrld":                    "/usr/local/bin/ctrld",
		"/Library/ControlD/ctrld-client":          "/Library/ControlD/ctrld-client",
		"/opt/" + testenv.Canary + "/ctrld":       "/opt/[removed]/ctrld",
		testenv.Canary:                            "[removed]",
		"/etc/" + testenv.Canary + "-home":        "/etc/[removed]",
		"C:\\Program Files\\ControlD\\ctrld.exe":  "C:\\Program Files\\ControlD\\ctrld.exe",
		"directory /srv/a1b2c3d4e5f6 is writable": "directory /srv/[removed] is writable",
	} {
		if got := RemoveTokenShaped(in); got != want {
			t.Errorf("RemoveTokenShaped(%q) = %q, want %q", in, got, want)
		}
	}
}
