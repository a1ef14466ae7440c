//go:build linux

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// A ctrld that a user other than root could replace is never run: the
// wrapper reports CTRLD_NOT_FOUND and the OS log says why.
func TestCtrldReplaceableByAUserIsNotRun(t *testing.T) {
	testenv.RequireRoot(t, "making files owned by another user")
	data, err := os.ReadFile(filepath.Join(binDir, "ctrld"))
	if err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct {
		prepare func(dir, ctrld string) error
		why     string
	}{
		"its folder is a user's": {func(dir, _ string) error { return os.Chown(dir, 1000, 0) }, "owned by uid 1000"},
		"it is a user's":         {func(_, ctrld string) error { return os.Chown(ctrld, 1000, 0) }, "owned by uid 1000"},
		"its folder is group-writable": {func(dir, _ string) error { return os.Chmod(dir, 0o775) },
			"is group- or world-writable"},
	} {
		t.Run(name, func(t *testing.T) {
			work := newWork(t)
			dir := filepath.Join(work, "bin")
			os.Mkdir(dir, 0o755)
			ctrld := filepath.Join(dir, "ctrld")
			os.WriteFile(ctrld, data, 0o755)
			if err := tc.prepare(dir, ctrld); err != nil {
				t.Fatal(err)
			}
			log, err := listenSyslog()
			if err != nil {
				t.Fatal(err)
			}
			defer log.close()
			os.WriteFile(filepath.Join(work, "token"), []byte(testenv.Canary+"\n"), 0o600)
			r := startWrapper(t, work, log.path, "--settings", filepath.Join(work, "none"),
				"--token-file", filepath.Join(work, "token"), "--ctrld", ctrld)
			if r.exit != 62 || !strings.Contains(r.stdout, "CTRLD_NOT_FOUND") {
				t.Fatalf("exit %d: %s", r.exit, r.stdout)
			}
			if _, err := os.Stat(filepath.Join(work, "calls")); err == nil {
				t.Fatal("ctrld ran")
			}
			text := log.text()
			if !strings.Contains(text, "ctrld not run: replaceable by another user") || !strings.Contains(text, tc.why) {
				t.Fatalf("OS log does not say why: %q", text)
			}
			if strings.Contains(text, testenv.Canary) {
				t.Fatal("canary in the OS log")
			}
		})
	}
}

// nobody owns the folder of the user in the tests below.
const nobodyUID = 65534

// The kernel resolves ".." after a link from the link's target: with
// root's bin/home linked into a user's folder, bin/home/../ctrld is the
// user's ctrld, although the cleaned path names root's bin/ctrld.
func TestCtrldReachedThroughALinkAndDotDotIsNotRun(t *testing.T) {
	testenv.RequireRoot(t, "making a folder owned by another user")
	data, err := os.ReadFile(filepath.Join(binDir, "ctrld"))
	if err != nil {
		t.Fatal(err)
	}
	work := newWork(t)
	bin, user := filepath.Join(work, "bin"), filepath.Join(work, "user")
	for _, dir := range []string{bin, filepath.Join(user, "sub")} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, ctrld := range []string{filepath.Join(bin, "ctrld"), filepath.Join(user, "ctrld")} {
		os.WriteFile(ctrld, data, 0o755)
	}
	for _, p := range []string{user, filepath.Join(user, "sub"), filepath.Join(user, "ctrld")} {
		if err := os.Chown(p, nobodyUID, nobodyUID); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(user, "sub"), filepath.Join(bin, "home")); err != nil {
		t.Fatal(err)
	}
	log, err := listenSyslog()
	if err != nil {
		t.Fatal(err)
	}
	defer log.close()
	os.WriteFile(filepath.Join(work, "token"), []byte(testenv.Canary+"\n"), 0o600)
	r := startWrapper(t, work, log.path, "--settings", filepath.Join(work, "none"),
		"--token-file", filepath.Join(work, "token"), "--ctrld", bin+"/home/../ctrld")
	if r.exit != 62 || !strings.Contains(r.stdout, "CTRLD_NOT_FOUND") {
		t.Fatalf("exit %d: %s", r.exit, r.stdout)
	}
	if _, err := os.Stat(filepath.Join(work, "calls")); err == nil {
		t.Fatal("the user's ctrld ran")
	}
	text := log.text()
	if !strings.Contains(text, "directory "+user+" is owned by uid 65534") {
		t.Fatalf("OS log does not say why: %q", text)
	}
	if strings.Contains(text, testenv.Canary) {
		t.Fatal("canary in the OS log")
	}
}
