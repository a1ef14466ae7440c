//go:build unix

package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// check-path prints the folder as the kernel resolves it, and refuses a
// file another user could replace with start's code for such a ctrld.
func TestCheckPath(t *testing.T) {
	dir := t.TempDir()
	bin, elsewhere := filepath.Join(dir, "bin"), filepath.Join(dir, "real", "bin")
	os.MkdirAll(elsewhere, 0o755)
	os.Symlink(elsewhere, bin)
	loose := filepath.Join(elsewhere, "ctrld")
	os.WriteFile(loose, nil, 0o755)
	os.Chmod(loose, 0o775)
	run := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := Run(System{}, append([]string{"check-path"}, args...), &stdout, &stderr)
		return code, stdout.String(), stderr.String()
	}
	if code, out, errOut := run("--dir", bin+"/../bin"); code != 0 || out != elsewhere+"\n" || errOut != "" {
		t.Errorf("folder: exit %d, stdout %q, stderr %q; want %s", code, out, errOut, elsewhere)
	}
	code, out, errOut := run(bin + "/ctrld")
	if code != 62 || out != "" || !strings.Contains(errOut, "is group- or world-writable") {
		t.Errorf("group-writable file: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if code, _, _ := run(); code != exitUsage {
		t.Errorf("no PATH: exit %d", code)
	}
}

// A refused path that holds a token, typed where a path belonged, is
// named with the token removed.
func TestCheckPathNeverEchoesAToken(t *testing.T) {
	dir := filepath.Join(t.TempDir(), testenv.Canary)
	os.MkdirAll(dir, 0o777)
	os.Chmod(dir, 0o777)
	var stdout, stderr bytes.Buffer
	code := Run(System{}, []string{"check-path", filepath.Join(dir, "ctrld")}, &stdout, &stderr)
	if code == exitOK {
		t.Fatalf("a world-writable folder was accepted: %q", stdout.String())
	}
	if strings.Contains(stdout.String()+stderr.String(), testenv.Canary) {
		t.Errorf("the token was echoed: %q", stderr.String())
	}
}
