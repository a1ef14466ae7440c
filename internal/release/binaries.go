package release

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
)

// buildWrappers cross-compiles ctrld-install for every platform.
func (c Config) buildWrappers() error {
	ldflags := "-s -w -buildid= -X github.com/ctrld-install/ctrld-install/wrapper/internal/cli.Version=" + c.Version
	return c.forEachPlatform(func(p Platform) error {
		return c.goBuild(p, ldflags, c.WrapperPath(p), "./wrapper")
	})
}

func (c Config) goBuild(p Platform, ldflags, out, pkg string) error {
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags", ldflags, "-o", out, pkg)
	cmd.Dir = c.Repo
	cmd.Env = append(os.Environ(), "GOOS="+p.OS, "GOARCH="+p.Arch, "CGO_ENABLED=0")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build %s for %s: %v\n%s", pkg, p, err, msg)
	}
	return nil
}

// forEachPlatform runs fn for every platform in parallel.
func (c Config) forEachPlatform(fn func(Platform) error) error {
	errs := make([]error, len(Platforms))
	var wg sync.WaitGroup
	for i, p := range Platforms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = fn(p)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// Ctrld maps a platform to its staged ctrld binary.
type Ctrld map[Platform]string

// stageCtrld puts a ctrld beside each ctrld-install: from CtrldDir, from
// the release archives, or the demo built from testdata. The binary keeps
// its release name (ctrld or ctrld-client).
func (c *Config) stageCtrld() (Ctrld, error) {
	switch {
	case c.ArchiveDir != "":
		return c.fromArchives()
	case c.CtrldDir != "":
		return c.fromDir()
	}
	staged := Ctrld{}
	var mu sync.Mutex
	err := c.forEachPlatform(func(p Platform) error {
		out := filepath.Join(c.binDir(p), exeName("ctrld", p.OS))
		if err := c.goBuild(p, "-s -w -buildid=", out, "./testdata/fakectrld"); err != nil {
			return err
		}
		mu.Lock()
		staged[p] = out
		mu.Unlock()
		return nil
	})
	return staged, err
}

func (c Config) fromDir() (Ctrld, error) {
	staged := Ctrld{}
	for _, p := range Platforms {
		src, err := findCtrld(filepath.Join(c.CtrldDir, p.String()), p.OS)
		if err != nil {
			return nil, fmt.Errorf("ctrld for %s: %w", p, err)
		}
		out := filepath.Join(c.binDir(p), filepath.Base(src))
		if err := copyFile(src, out, 0o755); err != nil {
			return nil, err
		}
		staged[p] = out
	}
	return staged, nil
}

// ctrldNames are the names releases give the binary.
var ctrldNames = []string{"ctrld", "ctrld-client"}

func findCtrld(dir, goos string) (string, error) {
	for _, n := range ctrldNames {
		p := filepath.Join(dir, exeName(n, goos))
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("no ctrld or ctrld-client in %s", dir)
}

func copyFile(src, dst string, mode os.FileMode) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.WriteFile(dst, data, mode)
}
