package platform

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// On Windows the record lands in ControlD\records under the native
// Program Files, where only administrators can create anything, wherever
// ctrld was installed; never under ProgramData, where any user can.
func TestWindowsRecordDirIsUnderProgramFiles(t *testing.T) {
	w := Windows{ProgramFiles: `C:\Program Files`}
	want := filepath.Join(`C:\Program Files`, "ControlD", "records")
	for _, home := range []string{`C:\Program Files\ControlD`, `C:\Program Files (x86)\ControlD`, `D:\Tools\ctrld`} {
		got := w.RecordDir(home)
		if got != want {
			t.Errorf("home %s: record dir %q, want %q", home, got, want)
		}
		if strings.Contains(strings.ToLower(got), "programdata") {
			t.Errorf("home %s: the record is under ProgramData: %q", home, got)
		}
	}
}

// The x86 wrapper on 64-bit Windows takes the 64-bit Program Files, as
// the 64-bit wrapper does, so both find the same record; 32-bit Windows
// has only its own.
func TestNativeProgramFilesPrefersThe64BitFolder(t *testing.T) {
	answer := func(dir string, err error) func() (string, error) {
		return func() (string, error) { return dir, err }
	}
	unknown := errors.New("element not found")
	for name, tc := range map[string]struct {
		native, own func() (string, error)
		want        string
	}{
		"64-bit Windows": {answer(`C:\Program Files`, nil), answer(`C:\Program Files (x86)`, nil), `C:\Program Files`},
		"32-bit Windows": {answer("", unknown), answer(`C:\Program Files`, nil), `C:\Program Files`},
		"nothing known":  {answer("", unknown), answer("", unknown), `C:\Program Files`},
		"empty answers":  {answer("", nil), answer(`E:\Apps`, nil), `E:\Apps`},
	} {
		if got := nativeProgramFiles(tc.native, tc.own); got != tc.want {
			t.Errorf("%s: %q, want %q", name, got, tc.want)
		}
	}
}

// On macOS and Linux the record is the ctrld home dir's.
func TestUnixRecordDirIsTheHome(t *testing.T) {
	for _, osys := range []OS{Linux{}, Darwin{}} {
		if got := osys.RecordDir("/etc/controld"); got != "/etc/controld" {
			t.Errorf("%T: %q", osys, got)
		}
	}
}
