package release

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/ctrld-install/ctrld-install/installers/signing"
	"github.com/ctrld-install/ctrld-install/internal/names"
)

// Stage builds ctrld-install and stages ctrld beside it for every platform
// ctrld ships, into Work/bin/<os>-<arch>, without packaging anything.
func Stage(cfg Config) error {
	if err := cfg.check(); err != nil {
		return err
	}
	_, err := cfg.stage(Platforms)
	return err
}

// stage builds the wrapper and stages ctrld for the given platforms.
func (c *Config) stage(platforms []Platform) (map[Platform]Binaries, error) {
	ctrld, err := c.stageCtrld(platforms)
	if err != nil {
		return nil, err
	}
	if err := c.settleLine(platforms, ctrld); err != nil {
		return nil, err
	}
	if c.Version == "" {
		return nil, fmt.Errorf("no version: set VERSION, build from a git checkout, or give release archives")
	}
	ldflags := "-s -w -buildid= -X " + names.VersionVar + "=" + c.Version
	wrappers, err := fanOut(platforms, func(p Platform) (string, error) {
		path := c.WrapperPath(p)
		if err := c.goBuild(p, ldflags, path, "./wrapper"); err != nil {
			return "", err
		}
		return path, c.signWrapper(p, path)
	})
	if err != nil {
		return nil, err
	}
	staged := map[Platform]Binaries{}
	for i, p := range platforms {
		staged[p] = Binaries{Platform: p, Ctrld: ctrld[i], Wrapper: wrappers[i]}
	}
	return staged, nil
}

// signWrapper Authenticode-signs a Windows ctrld-install.exe in place, right
// after it is built, so every installer that carries it carries it signed.
func (c Config) signWrapper(p Platform, path string) error {
	if p.OS != "windows" || c.Signing.Windows == nil {
		return nil
	}
	if err := signing.SignPEFile(c.Signing.Windows, path, path); err != nil {
		return fmt.Errorf("sign %s for %s: %w", names.Wrapper, p, err)
	}
	return nil
}

func (c Config) goBuild(p Platform, ldflags, out, pkg string) error {
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags", ldflags, "-o", out, pkg)
	cmd.Dir = c.Repo
	cmd.Env = append(childEnv(os.Environ()), "GOOS="+p.OS, "GOARCH="+p.GOARCH(), "GOARM="+p.GOARM(), "CGO_ENABLED=0")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build %s for %s: %v\n%s", pkg, p, err, msg)
	}
	return nil
}

// stageCtrld puts a ctrld beside each ctrld-install, in the platforms'
// order: from CtrldDir, from the release archives, or the demo built from
// testdata (under the name of the line asked for). The binary keeps its
// release name (ctrld or ctrld-client).
func (c *Config) stageCtrld(platforms []Platform) ([]string, error) {
	switch {
	case c.ArchiveDir != "":
		return c.fromArchives(platforms)
	case c.CtrldDir != "":
		return c.fromDir(platforms)
	}
	return fanOut(platforms, func(p Platform) (string, error) {
		out := filepath.Join(c.binDir(p), exeName(c.demoLine(), p.OS))
		return out, c.goBuild(p, "-s -w -buildid=", out, "./testdata/fakectrld")
	})
}

// fromDir copies <os>-<arch>/ctrld for each platform, naming every
// platform that is missing at once.
func (c Config) fromDir(platforms []Platform) ([]string, error) {
	var staged []string
	var missing []error
	for _, p := range platforms {
		src, err := findCtrld(filepath.Join(c.CtrldDir, p.String()), p.OS, c.lineNames())
		if err != nil {
			missing = append(missing, err)
			continue
		}
		out := filepath.Join(c.binDir(p), filepath.Base(src))
		if err := copyFile(src, out, 0o755); err != nil {
			return nil, err
		}
		staged = append(staged, out)
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("CTRLD_DIR lacks ctrld binaries that %s needs:\n%w", c.kindsLabel(), errors.Join(missing...))
	}
	return staged, nil
}

func findCtrld(dir, goos string, names []string) (string, error) {
	for _, n := range names {
		p := filepath.Join(dir, exeName(n, goos))
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	var want []string
	for _, n := range names {
		want = append(want, exeName(n, goos))
	}
	return "", fmt.Errorf("no %s in %s", strings.Join(want, " or "), dir)
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
