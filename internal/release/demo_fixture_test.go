package release

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// shared holds what the tests build once per run and share.
var shared testenv.Shared

func TestMain(m *testing.M) {
	if dir := os.Getenv(onlyGoDistDir); dir != "" {
		os.Exit(buildOnlyGoDist(dir))
	}
	os.Exit(testenv.RunSharing(m, &shared))
}

// onlyGoDistDir, set, makes the test binary a child that builds the demo
// release into that folder and exits: the release built by a process
// whose PATH holds only go.
const onlyGoDistDir = "CTRLD_INSTALL_TEST_ONLY_GO_DIST"

func buildOnlyGoDist(dir string) int {
	if _, err := buildDemo(filepath.Join(dir, "dist"), filepath.Join(dir, "work"), io.Discard); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// buildDemo builds the whole demo release, every kind and platform.
func buildDemo(out, work string, progress io.Writer) (Config, error) {
	cfg := Config{Out: out, Work: work, Repo: testenv.RepoRoot(), MTime: epoch, Version: "1.2.3", Progress: progress}
	arts, err := Dist(cfg)
	if err == nil && len(arts) != 32 {
		err = fmt.Errorf("demo dist: %d artifacts, want every kind and platform", len(arts))
	}
	return cfg, err
}

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
	cfg, err := buildDemo(filepath.Join(shared.Dir, "demo", "dist"), filepath.Join(shared.Dir, "demo", "work"), &progress)
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
