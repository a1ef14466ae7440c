package windows

import (
	"math/rand"
	"os"
	"path/filepath"
	"testing"
	"time"
)

var epoch = time.Unix(1_700_000_000, 0).UTC()

// fakeExes stand in for the Windows binaries (the inputs the wixl golden
// tables were made from): most tests read tables.
func fakeExes(t *testing.T) (ctrld, wrapper string) {
	dir := t.TempDir()
	ctrld, wrapper = filepath.Join(dir, "ctrld.exe"), filepath.Join(dir, "ctrld-install.exe")
	os.WriteFile(ctrld, []byte("MZ fake ctrld"), 0o755)
	os.WriteFile(wrapper, []byte("MZ fake wrapper"), 0o755)
	return ctrld, wrapper
}

// randomExes are larger and incompressible, so the cabinet has many
// blocks and the compound file regular sectors.
func randomExes(t testing.TB, size int) (ctrld, wrapper string) {
	dir := t.TempDir()
	r := rand.New(rand.NewSource(int64(size)))
	ctrld, wrapper = filepath.Join(dir, "ctrld.exe"), filepath.Join(dir, "ctrld-install.exe")
	for _, f := range []string{ctrld, wrapper} {
		b := make([]byte, size)
		r.Read(b)
		os.WriteFile(f, b, 0o755)
		size += 12345
	}
	return ctrld, wrapper
}

func pkg(arch, ctrld, wrapper string) Package {
	return Package{Version: "1.2.3", Arch: arch, Ctrld: ctrld, Wrapper: wrapper, MTime: epoch}
}
