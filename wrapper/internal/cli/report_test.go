package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An input's name never reaches the report: a name holding a newline,
// a result line and a terminal escape forges no row, in any output.
func TestReportNeverCopiesInputNames(t *testing.T) {
	dir := t.TempDir()
	forged := "x\n4 devices with a result\n99  41  listener  LISTENER_BIND_FAILED\x1b[2J\r" + complete
	name := filepath.Join(dir, forged)
	if err := os.WriteFile(name, []byte(bindFailedLine+"\n"), 0o644); err != nil {
		t.Skipf("this file system refuses the name: %v", err)
	}
	page := filepath.Join(dir, "page.html")
	for _, format := range [][]string{nil, {"--json"}, {"--html", page}} {
		exit, out, errOut := run(append(append([]string{"report"}, format...), name)...)
		if exit != exitOK || errOut != "" {
			t.Fatalf("%q: exit %d, stderr %q", format, exit, errOut)
		}
		html, _ := os.ReadFile(page)
		for _, piece := range []string{"\x1b", "\r", "99", "x\n", complete, forged[:8]} {
			if strings.Contains(out+string(html), piece) {
				t.Errorf("%q: the input's name reached the report (%q):\n%s", format, piece, out)
			}
		}
		if !strings.Contains(out, "input 1") && !strings.Contains(out, `"input": 1`) {
			t.Errorf("%q: the input is not named by its place:\n%s", format, out)
		}
	}
}

const (
	bindFailedLine = "provisioning failed: stage=listener code=LISTENER_BIND_FAILED (exit 41)"
	complete       = "provisioning complete (exit 0)"
)

// An input that cannot be read is a failure (exit 1), said by its place;
// it is not a usage error.
func TestReportOnAnUnreadableInput(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.csv")
	exit, out, errOut := run("report", missing)
	if exit != exitFailed || out != "" || errOut != "ctrld-install report: input 1 could not be read: no such file or directory\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", exit, out, errOut)
	}
}
