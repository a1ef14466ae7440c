package tiers

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/magefile/mage/sh"

	"github.com/ctrld-install/ctrld-install/internal/release"
)

// benchPackages hold the benchmarks of the table: the wrapper's overhead,
// the scanner's throughput and peak RSS, and the pkg build.
var benchPackages = []string{"./wrapper/...", "./installers/macos/"}

// Bench runs the benchmarks and a release build of cfg in a temporary
// folder, and prints one table: wrapper overhead, scanner throughput,
// peak RSS, pkg build, and each installer's build time and size.
func Bench(cfg release.Config) error {
	args := append([]string{"test", "-run", "^$", "-bench", ".", "-benchmem", "-benchtime", envOr("BENCHTIME", "5x")}, benchPackages...)
	out, err := sh.Output("go", args...)
	if err != nil {
		fmt.Println(out)
		return err
	}
	tmp, err := os.MkdirTemp("", "ctrld-bench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	cfg.Out, cfg.Work, cfg.Progress = filepath.Join(tmp, "dist"), filepath.Join(tmp, "build"), nil
	arts, err := release.Dist(cfg)
	if err != nil {
		return err
	}
	release.WriteBenchTable(os.Stdout, release.ParseBench(out), arts)
	return nil
}

func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}
