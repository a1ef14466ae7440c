package release

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/ctrld-install/ctrld-install/internal/names"
)

// archiveName matches ctrld's release archives:
// ctrld_<version>_<os>_<arch>.tar.gz, or .zip for Windows, where arch is
// amd64, arm64, 386 or armv5/armv6/armv7. "all" is a universal macOS
// build that serves both Mac architectures.
var archiveName = regexp.MustCompile(`^(ctrld|ctrld-client)_([0-9][^_]*)_(linux|darwin|windows)_(amd64|arm64|386|armv[567]|all)\.(tar\.gz|zip)$`)

// maxBinary bounds what is read from an archive member.
const maxBinary = 512 << 20

// fromArchives extracts ctrld for each platform, in the platforms' order,
// naming every platform without an archive at once.
func (c *Config) fromArchives(platforms []Platform) ([]string, error) {
	entries, err := os.ReadDir(c.ArchiveDir)
	if err != nil {
		return nil, err
	}
	wanted := map[Platform]string{}
	for _, p := range platforms {
		wanted[p] = ""
	}
	version := ""
	for _, e := range entries {
		m := archiveName.FindStringSubmatch(e.Name())
		if m == nil {
			continue
		}
		if version != "" && m[2] != version {
			return nil, fmt.Errorf("release archives disagree on the version: %s and %s", version, m[2])
		}
		version = m[2]
		for _, p := range archivePlatforms(m[3], m[4]) {
			if _, ok := wanted[p]; !ok {
				continue
			}
			out, err := c.extractCtrld(filepath.Join(c.ArchiveDir, e.Name()), m[5], p)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", e.Name(), err)
			}
			wanted[p] = out
		}
	}
	var staged, missing []string
	for _, p := range platforms {
		if wanted[p] == "" {
			missing = append(missing, fmt.Sprintf("ctrld_<version>_%s_%s.%s", p.OS, p.Arch, archiveExt(p.OS)))
		}
		staged = append(staged, wanted[p])
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("CTRLD_RELEASE_DIR %s lacks release archives that %s needs: %s",
			c.ArchiveDir, c.kindsLabel(), strings.Join(missing, ", "))
	}
	if c.Version == "" {
		c.Version = version
	}
	return staged, nil
}

func archiveExt(goos string) string {
	if goos == "windows" {
		return "zip"
	}
	return "tar.gz"
}

func archivePlatforms(goos, arch string) []Platform {
	if arch == "all" {
		return []Platform{{goos, "amd64"}, {goos, "arm64"}}
	}
	return []Platform{{goos, arch}}
}

// extractCtrld copies the ctrld binary out of one archive.
func (c Config) extractCtrld(archive, format string, p Platform) (string, error) {
	var name string
	var data []byte
	var err error
	if format == "zip" {
		name, data, err = fromZip(archive, p.OS)
	} else {
		name, data, err = fromTarGz(archive, p.OS)
	}
	if err != nil {
		return "", err
	}
	out := filepath.Join(c.binDir(p), name)
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return "", err
	}
	return out, os.WriteFile(out, data, 0o755)
}

func isCtrld(member, goos string) bool {
	base := path.Base(member)
	for _, n := range names.CtrldNames {
		if base == exeName(n, goos) {
			return true
		}
	}
	return false
}

func fromTarGz(archive, goos string) (string, []byte, error) {
	f, err := os.Open(archive)
	if err != nil {
		return "", nil, err
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return "", nil, err
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return "", nil, fmt.Errorf("no ctrld binary inside")
		}
		if err != nil {
			return "", nil, err
		}
		if h.Typeflag == tar.TypeReg && isCtrld(h.Name, goos) {
			data, err := readBounded(tr)
			return path.Base(h.Name), data, err
		}
	}
}

func fromZip(archive, goos string) (string, []byte, error) {
	zr, err := zip.OpenReader(archive)
	if err != nil {
		return "", nil, err
	}
	defer zr.Close()
	for _, f := range zr.File {
		if strings.HasSuffix(f.Name, "/") || !isCtrld(f.Name, goos) {
			continue
		}
		r, err := f.Open()
		if err != nil {
			return "", nil, err
		}
		data, err := readBounded(r)
		r.Close()
		return path.Base(f.Name), data, err
	}
	return "", nil, fmt.Errorf("no ctrld binary inside")
}

func readBounded(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxBinary+1))
	if len(data) > maxBinary {
		return nil, fmt.Errorf("ctrld binary larger than %d bytes", maxBinary)
	}
	return data, err
}
