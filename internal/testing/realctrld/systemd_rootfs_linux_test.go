package realctrld

import (
	"bufio"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// rootfsRecipe builds the systemd root file system; its hash names the
// cache, so a changed recipe builds anew.
//
//go:embed systemd_rootfs.sh
var rootfsRecipe []byte

// debianSuite is the release the root file system is built from: the one
// this machine's mirror serves.
const debianSuite = "bookworm"

// aptSources are where apt names its mirrors.
var aptSources = []string{"/etc/apt/sources.list", "/etc/apt/sources.list.d"}

// rootfsCacheDir is where built root file systems are kept, outside the
// repository: $XDG_CACHE_HOME/ctrld-install, else /var/cache/ctrld-install.
func rootfsCacheDir() string {
	if dir := os.Getenv("XDG_CACHE_HOME"); filepath.IsAbs(dir) {
		return filepath.Join(dir, "ctrld-install")
	}
	return "/var/cache/ctrld-install"
}

// systemdRootfs returns the cached Debian root file system with systemd,
// building it first when the cache has none for this recipe. A lock file
// keeps concurrent test processes from building it twice.
func systemdRootfs() (string, error) {
	sum := sha256.Sum256(rootfsRecipe)
	dir := filepath.Join(rootfsCacheDir(), "systemd-rootfs-"+hex.EncodeToString(sum[:8]))
	if ready(dir) {
		return dir, nil
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return "", err
	}
	lock, err := os.OpenFile(dir+".lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return "", err
	}
	defer lock.Close()
	if err := unix.Flock(int(lock.Fd()), unix.LOCK_EX); err != nil {
		return "", err
	}
	if ready(dir) {
		return dir, nil
	}
	return dir, buildRootfs(dir)
}

func ready(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "lib/systemd/systemd"))
	return err == nil
}

// buildRootfs runs the recipe into a scratch folder and renames it into
// place only when it succeeded.
func buildRootfs(dir string) error {
	mirror, err := debianMirror()
	if err != nil {
		return err
	}
	scratch := dir + ".building"
	if err := os.RemoveAll(scratch); err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	cmd := exec.Command("/bin/sh", "-c", string(rootfsRecipe), "systemd-rootfs", scratch, mirror)
	cmd.Env = baseEnv
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("building the systemd root file system: %v\n%s", err, tail(out, 4096))
	}
	return os.Rename(scratch, dir)
}

func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}

// debianMirror is the first mirror apt uses for the suite, from one-line
// (.list) or deb822 (.sources) entries.
func debianMirror() (string, error) {
	var files []string
	for _, src := range aptSources {
		if st, err := os.Stat(src); err == nil && st.IsDir() {
			for _, ext := range []string{"*.list", "*.sources"} {
				m, _ := filepath.Glob(filepath.Join(src, ext))
				files = append(files, m...)
			}
			continue
		}
		files = append(files, src)
	}
	for _, f := range files {
		if uri := mirrorIn(f); uri != "" {
			return uri, nil
		}
	}
	return "", errors.New("no Debian " + debianSuite + " mirror in the apt sources")
}

func mirrorIn(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	var uris, suites []string
	sc := bufio.NewScanner(f)
	flush := func() string {
		defer func() { uris, suites = nil, nil }()
		for _, s := range suites {
			if s == debianSuite && len(uris) > 0 {
				return uris[0]
			}
		}
		return ""
	}
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		fields := strings.Fields(line)
		switch {
		case line == "":
			if uri := flush(); uri != "" {
				return uri
			}
		case strings.HasPrefix(line, "URIs:"):
			uris = fields[1:]
		case strings.HasPrefix(line, "Suites:"):
			suites = fields[1:]
		case len(fields) >= 3 && fields[0] == "deb":
			if uri := oneLineMirror(fields[1:]); uri != "" {
				return uri
			}
		}
	}
	return flush()
}

// oneLineMirror reads "[options] uri suite components..." of a .list line.
func oneLineMirror(fields []string) string {
	if strings.HasPrefix(fields[0], "[") {
		for len(fields) > 0 && !strings.HasSuffix(fields[0], "]") {
			fields = fields[1:]
		}
		if len(fields) > 0 {
			fields = fields[1:]
		}
	}
	if len(fields) >= 2 && fields[1] == debianSuite {
		return fields[0]
	}
	return ""
}
