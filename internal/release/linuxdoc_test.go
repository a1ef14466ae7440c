package release

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/installers/linux"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// linuxGuideHeader heads the Linux guide's table of architectures.
const linuxGuideHeader = "| architecture | deb | rpm | tar.gz |"

// The Linux guide lists every architecture the release packages, in
// LinuxArches' order, each under the names its formats give it.
func TestLinuxGuideListsEveryArchitecture(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(testenv.RepoRoot(), "docs", "linux.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(data), "\n"+linuxGuideHeader+"\n|---|---|---|---|\n")
	if !ok {
		t.Fatalf("docs/linux.md has no table headed %q", linuxGuideHeader)
	}
	rows := strings.Split(table, "\n")
	for i, arch := range LinuxArches {
		if i >= len(rows) {
			t.Fatalf("docs/linux.md lists %d architectures, the release %d", i, len(LinuxArches))
		}
		want := []string{"| " + arch, docName(linux.Deb, arch), docName(linux.RPM, arch), "`linux_" + linux.ArchName(linux.Tarball, arch) + "` |"}
		got := strings.Split(rows[i], " | ")
		if len(got) == len(want) && want[1] == "none" {
			// The row may say what to install instead.
			got[1], _, _ = strings.Cut(got[1], " ")
		}
		if strings.Join(got, " | ") != strings.Join(want, " | ") {
			t.Errorf("docs/linux.md row %d:\n got  %s\n want %s", i+1, rows[i], strings.Join(want, " | "))
		}
	}
	if len(rows) > len(LinuxArches) && strings.HasPrefix(rows[len(LinuxArches)], "|") {
		t.Errorf("docs/linux.md lists an architecture the release does not build: %s", rows[len(LinuxArches)])
	}
}

func docName(format linux.Format, arch string) string {
	if n := linux.ArchName(format, arch); n != "" {
		return "`" + n + "`"
	}
	return "none"
}
