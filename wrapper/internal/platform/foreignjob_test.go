//go:build unix

package platform

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"howett.net/plist"
)

// nobody owns the user's files below when the tests run as root.
const nobody = 65534

// usersCtrld writes a ctrld in a user's folder under root: a file the
// user could replace (group-writable; as root, also owned by nobody).
func usersCtrld(t *testing.T, root string) string {
	t.Helper()
	dir := filepath.Join(root, "Users", "u")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "ctrld")
	if err := os.WriteFile(path, []byte("theirs"), 0o775); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o775); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() == 0 {
		for _, p := range []string{dir, path} {
			if err := os.Chown(p, nobody, nobody); err != nil {
				t.Fatal(err)
			}
		}
	}
	return path
}

// A job named like ours that runs another binary (a Homebrew prefix, a
// ctrld started by hand from a user's folder) is unloaded and pointed at
// the packaged binary before any reload; the other binary is not ours and
// stays, and so does the old release's ctrld, which no job runs.
func TestMoveOffLegacyDirRepointsAJobOfAnotherBinary(t *testing.T) {
	for name, at := range map[string]func(t *testing.T, root string) string{
		"a user's folder": usersCtrld,
		"a Homebrew prefix": func(t *testing.T, root string) string {
			p := filepath.Join(root, "opt", "homebrew", "bin", "ctrld")
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.WriteFile(p, []byte("brew"), 0o755)
			return p
		},
	} {
		t.Run(name, func(t *testing.T) {
			m := newLegacyMac(t, plist.XMLFormat)
			theirs := at(t, m.root)
			writePlist(t, m.plist, jobFor(theirs), plist.XMLFormat)
			moveUnloadingFirst(t, m)
			if job, _ := readPlist(t, m.plist); !equalJobs(job, jobFor(m.svc.Ctrld)) {
				t.Fatalf("plist now %v, want it on %s", job, m.svc.Ctrld)
			}
			if _, err := os.Stat(theirs); err != nil {
				t.Errorf("the other binary was removed: %v", err)
			}
			if !m.exists("ctrld") || m.exists("ctrld-install") {
				t.Errorf("old ctrld kept %v, old ctrld-install removed %v; want both", m.exists("ctrld"), !m.exists("ctrld-install"))
			}
		})
	}
}

// A job of another binary that launchd keeps loaded is not rewritten.
func TestMoveOffLegacyDirLeavesAStuckJobOfAnotherBinary(t *testing.T) {
	m := newLegacyMac(t, plist.XMLFormat)
	writePlist(t, m.plist, jobFor(usersCtrld(t, m.root)), plist.XMLFormat)
	before, _ := os.ReadFile(m.plist)
	m.launchd.stuck = true
	if err := m.darwin.MoveOffLegacyDir(context.Background(), m.svc); !errors.Is(err, ErrJobStillLoaded) {
		t.Fatalf("err %v, want %v", err, ErrJobStillLoaded)
	}
	if now, _ := os.ReadFile(m.plist); !bytes.Equal(now, before) {
		t.Error("the plist changed")
	}
}

// The packaged binary by a path through a user's folder is not ours: the
// user could point that path at another file later.
func TestMoveOffLegacyDirRepointsAJobThroughAUsersLink(t *testing.T) {
	m := newLegacyMac(t, plist.XMLFormat)
	users := filepath.Dir(usersCtrld(t, m.root))
	link := filepath.Join(users, "bin")
	if err := os.Symlink(filepath.Dir(m.svc.Ctrld), link); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(users, 0o777); err != nil {
		t.Fatal(err)
	}
	writePlist(t, m.plist, jobFor(filepath.Join(link, "ctrld")), plist.XMLFormat)
	if err := m.darwin.MoveOffLegacyDir(context.Background(), m.svc); err != nil {
		t.Fatal(err)
	}
	if job, _ := readPlist(t, m.plist); !equalJobs(job, jobFor(m.svc.Ctrld)) {
		t.Fatalf("plist now %v, want it on %s", job, m.svc.Ctrld)
	}
}

// The reload never loads a job whose binary a user other than root could
// replace, whatever left it there; the packaged binary's job is loaded.
func TestReloadNeverLoadsAJobAUserCouldReplace(t *testing.T) {
	m := newLegacyMac(t, plist.XMLFormat)
	writePlist(t, m.plist, jobFor(usersCtrld(t, m.root)), plist.XMLFormat)
	if err := m.darwin.Reload(context.Background(), m.svc); !errors.Is(err, ErrJobNotTrusted) {
		t.Fatalf("err %v, want %v", err, ErrJobNotTrusted)
	}
	if len(m.launchd.calls) != 0 {
		t.Fatalf("launchctl called: %q", m.launchd.calls)
	}
	writePlist(t, m.plist, jobFor(m.svc.Ctrld), plist.XMLFormat)
	m.darwin.Reload(context.Background(), m.svc)
	if want := launchctl + " load -w " + m.plist; !strings.Contains(strings.Join(m.launchd.calls, "\n"), want) {
		t.Fatalf("the packaged binary's job was not loaded: %q", m.launchd.calls)
	}
}
