//go:build unix

package provision

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/codes"
	"github.com/ctrld-install/ctrld-install/internal/settings"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/platform"
)

// flagToken wins over the settings file's token, which is still a secret.
const flagToken = "flag-token-7f3e2a"

// settingsFile is a settings file that counts: root's, private.
func settingsFile(t *testing.T, body string) string {
	t.Helper()
	testenv.RequireRoot(t, "only a settings file root owns counts")
	path := filepath.Join(t.TempDir(), "settings")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLowerPriorityTokenIsRedactedFromWarnings(t *testing.T) {
	ctrld, calls := shCtrld(t, 0, 0)
	p, log := newProvisioner(t, ctrld, platform.Linux{}, nil, settings.Settings{settings.ProvisionToken: flagToken})
	p.Config.SettingsFile = settingsFile(t, "ProvisionToken="+testenv.Canary+"\nInterceptMode=x"+testenv.Canary+"\nCustomHostname="+testenv.Canary+"_\n")
	o := p.Run(context.Background())
	all := strings.Join(*log, "\n")
	if o.Code != codes.InterceptModeInvalid && o.Code != codes.CustomHostnameInvalid {
		t.Fatalf("got %q, log %q", o.Line(), all)
	}
	if !strings.Contains(all, "is not") {
		t.Fatalf("no warning about the bad value: %q", all)
	}
	if strings.Contains(all, testenv.Canary) || strings.Contains(all, flagToken) {
		t.Fatalf("a token reached the OS log: %q", all)
	}
	if data, _ := os.ReadFile(calls); len(data) != 0 {
		t.Fatalf("ctrld ran on bad input: %q", data)
	}
	if found := testenv.FilesWithCanary(p.Config.Home); len(found) > 0 {
		t.Fatalf("canary in %v", found)
	}
}

// upperToken is made of code characters only: as a code it would pass
// every other check of an identifier.
const upperToken = "QZXSETTINGSTOKEN"

func TestIdentifierHoldingAKnownTokenFallsThrough(t *testing.T) {
	for _, code := range []string{upperToken, "X_" + upperToken} {
		dir := t.TempDir()
		ctrld := filepath.Join(dir, "ctrld")
		script := "#!/bin/sh\n[ \"$1\" = start ] || exit 0\necho 'provisioning failed: stage=input code=" + code + " (exit 21)'\nexit 1\n"
		if err := os.WriteFile(ctrld, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		p, _ := newProvisioner(t, ctrld, platform.Linux{}, nil, settings.Settings{settings.ProvisionToken: testenv.Canary})
		p.Config.SettingsFile = settingsFile(t, "ProvisionToken="+upperToken+"\n")
		o := p.Run(context.Background())
		if o.Code != codes.CtrldUnidentified || strings.Contains(o.Line(), upperToken) {
			t.Fatalf("code %s: got %q, want CTRLD_UNIDENTIFIED by exit code", code, o.Line())
		}
	}
}
