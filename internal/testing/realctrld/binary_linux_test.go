package realctrld

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// binaryEnv names the real ctrld binaries the tier runs: one path, or
// several separated by colons or commas (v1.5.0 and v2.0.0-pre).
const binaryEnv = "CTRLD_REAL"

// ctrldBinary is one real ctrld binary the tier runs.
type ctrldBinary struct {
	Path string
	// Version names it in subtests: its folder's name
	// (v1.5.0-linux-amd64), else its own.
	Version string
}

// ctrldBinaries are the real ctrld binaries named by CTRLD_REAL, in its
// order, each once. Without one the tier skips on a laptop and fails
// under CI; -short skips it everywhere.
func ctrldBinaries(t testing.TB) []ctrldBinary {
	t.Helper()
	testenv.RealInstall(t, "real ctrld, packages installed in a namespace")
	paths := parseBinaries(os.Getenv(binaryEnv))
	if len(paths) == 0 {
		testenv.Unavailable(t, "%s is not set: it names the real ctrld binaries this tier runs", binaryEnv)
	}
	var out []ctrldBinary
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil || !st.Mode().IsRegular() || st.Mode().Perm()&0o111 == 0 {
			testenv.Unavailable(t, "%s: %s is not an executable file", binaryEnv, p)
		}
		out = append(out, ctrldBinary{Path: p, Version: versionOf(p)})
	}
	return out
}

// parseBinaries splits a CTRLD_REAL value into paths: colons or commas
// separate them, blanks around them and empty entries are dropped, and a
// path named twice counts once.
func parseBinaries(value string) []string {
	var out []string
	seen := map[string]bool{}
	for _, p := range strings.FieldsFunc(value, func(r rune) bool { return r == ':' || r == ',' }) {
		p = strings.TrimSpace(p)
		if p == "" || seen[p] {
			continue
		}
		seen[p] = true
		out = append(out, p)
	}
	return out
}

func versionOf(path string) string {
	if dir := filepath.Base(filepath.Dir(path)); dir != "." && dir != "/" {
		return dir
	}
	return filepath.Base(path)
}

func TestParseBinaries(t *testing.T) {
	for in, want := range map[string][]string{
		"":                       nil,
		"/a/ctrld":               {"/a/ctrld"},
		"/a/ctrld:/b/ctrld":      {"/a/ctrld", "/b/ctrld"},
		" /a/ctrld , /b/ctrld ,": {"/a/ctrld", "/b/ctrld"},
		"/a/ctrld::/a/ctrld,":    {"/a/ctrld"},
	} {
		if got := parseBinaries(in); !slices.Equal(got, want) {
			t.Errorf("ParseBinaries(%q) = %q, want %q", in, got, want)
		}
	}
	if v := versionOf("/work/shared/ctrld/v2.0.0-pre-linux-amd64/ctrld"); v != "v2.0.0-pre-linux-amd64" {
		t.Errorf("version %q", v)
	}
}
