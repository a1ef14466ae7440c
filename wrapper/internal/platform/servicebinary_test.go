//go:build unix

package platform

import (
	"os"
	"path/filepath"
	"testing"
)

func TestInstalledOnlyForAServiceOfThisBinary(t *testing.T) {
	dir := t.TempDir()
	ours := filepath.Join(dir, "usr", "bin", "ctrld")
	other := filepath.Join(dir, "usr", "local", "bin", "ctrld")
	for _, p := range []string{ours, other} {
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("binary"), 0o755)
	}
	link := filepath.Join(dir, "ctrld-link")
	os.Symlink(ours, link)
	cases := []struct {
		name, content string
		want          bool
	}{
		{"unit on this binary", "[Service]\nExecStart=" + ours + ` "run" "--cd=x"` + "\n", true},
		{"unit on this binary, quoted and prefixed", "[Service]\nExecStart=-\"" + ours + "\" run\n", true},
		{"unit on the same file by a link", "[Service]\nExecStart=" + link + " run\n", true},
		{"unit on another binary", "[Service]\nExecStart=" + other + ` "run" "--cd=x"` + "\n", false},
		{"sysv script on another binary", "#!/bin/sh\ncmd=\"" + other + " \\\"run\\\"\"\n", false},
		{"sysv script on this binary", "#!/bin/sh\ncmd=\"" + ours + " run\"\n", true},
		{"no binary named", "installed\n", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			unit := filepath.Join(t.TempDir(), "ctrld.service")
			if err := os.WriteFile(unit, []byte(c.content), 0o644); err != nil {
				t.Fatal(err)
			}
			svc := Service{Ctrld: ours, Files: []string{filepath.Join(dir, "missing"), unit}}
			if got := (Linux{}).Installed(svc); got != c.want {
				t.Errorf("Installed = %v, want %v", got, c.want)
			}
		})
	}
	if (Linux{}).Installed(Service{Ctrld: ours, Files: []string{filepath.Join(dir, "missing")}}) {
		t.Error("Installed with no service file")
	}
}
