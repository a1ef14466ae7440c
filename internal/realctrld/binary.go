package realctrld

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testenv"
)

// BinaryEnv names the real ctrld binary the tier runs.
const BinaryEnv = "CTRLD_REAL"

// Ctrld is one real ctrld binary the tier runs.
type Ctrld struct {
	Path string
	// Version names it in subtests: its folder's name (v1.5.0-linux-amd64).
	Version string
}

// Binaries are the real ctrld binaries the tier runs.
func Binaries(t testing.TB) []Ctrld {
	t.Helper()
	path := Binary(t)
	return []Ctrld{{Path: path, Version: filepath.Base(filepath.Dir(path))}}
}

// Binary is the real ctrld named by CTRLD_REAL. Without one the tier skips
// on a laptop and fails under CI; -short skips it everywhere.
func Binary(t testing.TB) string {
	t.Helper()
	testenv.RealInstall(t, "real ctrld, packages installed in a namespace")
	path := os.Getenv(BinaryEnv)
	if path == "" {
		testenv.Unavailable(t, "%s is not set: it names the real ctrld binary this tier runs", BinaryEnv)
	}
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() || st.Mode().Perm()&0o111 == 0 {
		testenv.Unavailable(t, "%s=%s is not an executable file", BinaryEnv, path)
	}
	return path
}
