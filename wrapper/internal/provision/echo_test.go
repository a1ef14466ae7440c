//go:build unix

package provision

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/settings"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/platform"
)

// A token typed into any setting other than the token's own is never
// echoed: on an upgrade, where no token is configured and so none is
// known to redact, and on a fresh install whose token is another. The
// line, the OS log and every file the run leaves are searched.
func TestATokenInAnyFieldIsNeverEchoed(t *testing.T) {
	for _, st := range settings.Table {
		if st.Secret {
			continue
		}
		t.Run(string(st.Key)+"/upgrade", func(t *testing.T) {
			checkNotEchoed(t, st.Key, settings.Settings{st.Key: testenv.Canary}, true)
		})
		t.Run(string(st.Key)+"/fresh", func(t *testing.T) {
			checkNotEchoed(t, st.Key, settings.Settings{st.Key: testenv.Canary, settings.ProvisionToken: flagToken}, false)
		})
	}
}

func checkNotEchoed(t *testing.T, key settings.Key, given settings.Settings, installed bool) {
	ctrld, calls := shCtrld(t, 0, 0)
	plist := filepath.Join(t.TempDir(), "ctrld.plist")
	if installed {
		if err := os.WriteFile(plist, []byte("<plist/>"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, log := newProvisioner(t, ctrld, platform.Darwin{Run: (&runnerLog{}).run}, []string{plist}, given)
	o := p.Run(context.Background())
	all := strings.Join(*log, "\n") + "\n" + o.Line()
	if testenv.HoldsPartOf([]byte(all), testenv.Canary) {
		t.Errorf("%s holding a token: echoed in %q", key, all)
	}
	for _, dir := range []string{p.Config.Home, filepath.Dir(calls)} {
		if found := testenv.FilesWithPartOf(dir, testenv.Canary, calls); len(found) > 0 {
			t.Errorf("%s holding a token: it is in %v", key, found)
		}
	}
}
