//go:build linux

package realctrld

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

func TestMirrorFromAptSources(t *testing.T) {
	for _, tc := range []struct{ name, file, want string }{
		{"deb822", "Types: deb\nURIs: http://mirror.example/debian\nSuites: bookworm bookworm-updates\nComponents: main\n\nTypes: deb\nURIs: http://security.example/debian-security\nSuites: bookworm-security\n", "http://mirror.example/debian"},
		{"deb822 other suite first", "Types: deb\nURIs: http://security.example/s\nSuites: bookworm-security\n\nTypes: deb\nURIs: http://mirror.example/debian\nSuites: bookworm\n", "http://mirror.example/debian"},
		{"one-line", "# comment\ndeb-src http://src.example/debian bookworm main\ndeb [arch=amd64 signed-by=/k.gpg] http://mirror.example/debian bookworm main\n", "http://mirror.example/debian"},
		{"other release only", "deb http://mirror.example/debian trixie main\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "sources")
			if err := os.WriteFile(path, []byte(tc.file), 0o644); err != nil {
				t.Fatal(err)
			}
			if got := mirrorIn(path); got != tc.want {
				t.Errorf("mirror %q, want %q", got, tc.want)
			}
		})
	}
}

func TestSysctlKeysLeaveOutGlobsAndComments(t *testing.T) {
	path := filepath.Join(t.TempDir(), "50-x.conf")
	body := "# comment\n; also\nfs.protected_regular = 2\n-net.ipv4.ping_group_range = 0 2147483647\nnet.ipv4.conf.*.rp_filter = 2\nkernel.sysrq=0x01b6\nnot a setting\n"
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	want := []string{"fs.protected_regular", "net.ipv4.ping_group_range", "kernel.sysrq"}
	if got := keysIn(path); !reflect.DeepEqual(got, want) {
		t.Errorf("keys %q, want %q", got, want)
	}
}

func TestSysctlChangesAreReported(t *testing.T) {
	before := map[string]string{"fs.protected_regular": "0", "kernel.sysrq": "438"}
	after := map[string]string{"fs.protected_regular": "2", "kernel.sysrq": "438"}
	if got := compareSysctls(before, after); len(got) != 1 || got[0] != `sysctl fs.protected_regular: "0" -> "2"` {
		t.Errorf("diffs %q", got)
	}
	if got := compareSysctls(before, before); len(got) != 0 {
		t.Errorf("no change reported as %q", got)
	}
}

func TestRootfsRecipePassesShellcheck(t *testing.T) {
	testenv.ShellCheck(t, "systemd_rootfs.sh", rootfsRecipe)
}
