//go:build unix

package provision

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/settings"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/platform"
)

// ctrld writes ctrld.toml into the home dir; made by the wrapper first,
// the folder must be as private as the packages ship it.
func TestHomeCreatedRootOnly(t *testing.T) {
	ctrld, _ := shCtrld(t, 0, 0)
	p, _ := newProvisioner(t, ctrld, platform.Linux{Run: (&runnerLog{}).run}, nil,
		settings.Settings{settings.ProvisionToken: testenv.Canary})
	p.Config.Home = filepath.Join(t.TempDir(), "controld")
	p.Run(context.Background())
	st, err := os.Stat(p.Config.Home)
	if err != nil {
		t.Fatal(err)
	}
	if mode := st.Mode().Perm(); mode != 0o700 {
		t.Fatalf("home dir mode %o, want 700", mode)
	}
}
