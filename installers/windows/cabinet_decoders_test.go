//go:build linux

package windows

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// goarch builds each MSI architecture's binaries.
var goarch = map[string]string{ArchX64: "amd64", ArchArm64: "arm64", ArchX86: "386"}

// The cabinet of each architecture's MSI, made of the real Go-built
// binaries as the release builds them, reads in both independent
// decoders: libmspack (cabextract) and gcab, each file byte-identical.
func TestCabinetOfRealBinariesReadsInEveryDecoder(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds six binaries")
	}
	cabextract, gcab := testenv.RequireTool(t, "cabextract"), testenv.RequireTool(t, "gcab")
	forEachArch(t, func(t *testing.T, arch string) {
		dir := t.TempDir()
		flags := []string{"-trimpath", "-ldflags", "-s -w -buildid="}
		env := []string{"GOOS=windows", "GOARCH=" + goarch[arch], "CGO_ENABLED=0"}
		ctrld, wrapper := filepath.Join(dir, "ctrld.exe"), filepath.Join(dir, "ctrld-install.exe")
		for out, src := range map[string]string{ctrld: "./testdata/fakectrld", wrapper: "./wrapper"} {
			if err := testenv.Build(out, src, flags, env...); err != nil {
				t.Fatal(err)
			}
		}
		cabinet := filepath.Join(dumpStreams(t, buildMSI(t, pkg(arch, ctrld, wrapper))), "_Streams", "ctrld.cab")
		if res := tool(t, cabextract, "-t", cabinet); strings.Count(res, "  OK") != 2 || !strings.Contains(res, "no errors") {
			t.Errorf("cabextract -t:\n%s", res)
		}
		for name, extract := range map[string][]string{"cabextract": {cabextract, "-q", "-d"}, "gcab": {gcab, "-x", "-C"}} {
			out := t.TempDir()
			tool(t, extract[0], append(extract[1:], out, cabinet)...)
			for src, inCab := range map[string]string{ctrld: "ctrld.exe", wrapper: "ctrld_install.exe"} {
				want, _ := os.ReadFile(src)
				got, err := os.ReadFile(filepath.Join(out, inCab))
				if err != nil || !bytes.Equal(got, want) {
					t.Errorf("%s: %s differs from the input (%v)", name, inCab, err)
				}
			}
		}
	})
}
