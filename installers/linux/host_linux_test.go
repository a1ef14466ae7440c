package linux

import (
	"bytes"
	"fmt"
	"os"
	"testing"
)

// hostDpkgFiles are what a dpkg run on the host would change. The tests
// install into throwaway roots only, so these must not change.
var hostDpkgFiles = []string{"/var/log/dpkg.log", "/var/lib/dpkg/status"}

// TestMain runs the package's tests, the real-dpkg tier among them, and
// fails the run if the host's dpkg log or database changed meanwhile.
func TestMain(m *testing.M) {
	before := readAll(hostDpkgFiles)
	code := m.Run()
	after := readAll(hostDpkgFiles)
	for _, f := range hostDpkgFiles {
		if !bytes.Equal(before[f], after[f]) {
			fmt.Fprintf(os.Stderr, "FAIL: the tests changed the host's %s (%d bytes before, %d after)\n", f, len(before[f]), len(after[f]))
			code = 1
		}
	}
	os.Exit(code)
}

func readAll(paths []string) map[string][]byte {
	files := map[string][]byte{}
	for _, p := range paths {
		files[p], _ = os.ReadFile(p) // absent stays absent
	}
	return files
}
