package release

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// shared holds what the tests build once per run and share.
var shared testenv.Shared

func TestMain(m *testing.M) { os.Exit(testenv.RunSharing(m, &shared)) }

// demoRelease is one whole demo release with its progress log, built once
// for every test that only reads it.
type demoRelease struct {
	Config
	progress string
}

// demoDist builds the demo release; the build takes no t, so no test's t
// outlives it.
var demoDist = sync.OnceValues(func() (demoRelease, error) {
	var progress bytes.Buffer
	cfg := Config{
		Out: filepath.Join(shared.Dir, "demo", "dist"), Work: filepath.Join(shared.Dir, "demo", "work"),
		Repo: testenv.RepoRoot(), MTime: epoch, Version: "1.2.3", Progress: &progress,
	}
	arts, err := Dist(cfg)
	if err == nil && len(arts) != 22 {
		err = fmt.Errorf("demo dist: %d artifacts, want every kind and platform", len(arts))
	}
	return demoRelease{cfg, progress.String()}, err
})

func sharedDemoDist(t *testing.T) demoRelease {
	t.Helper()
	demo, err := demoDist()
	if err != nil {
		t.Fatal(err)
	}
	return demo
}
