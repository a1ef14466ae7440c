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

// fakeLaunchd answers launchctl unload, bootout and list for one job, and checks
// on every call that the old binaries are still in place: nothing may
// remove them while launchctl is still being asked about the job.
type fakeLaunchd struct {
	t      *testing.T
	label  string
	loaded bool
	stuck  bool // unload and bootout leave the job loaded
	// ignoresUnload: only bootout removes the job.
	ignoresUnload bool
	onCall        func(args []string) // runs before each call is answered
	calls         []string
	needs         []string // files that must exist at every call
	plistAt       string
}

func (f *fakeLaunchd) run(ctx context.Context, _ []string, name string, args ...string) error {
	f.calls = append(f.calls, name+" "+strings.Join(args, " "))
	for _, p := range f.needs {
		if _, err := os.Lstat(p); err != nil {
			f.t.Errorf("%s was gone at %q", p, args)
		}
	}
	if f.onCall != nil {
		f.onCall(args)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	switch {
	case args[0] == "unload" && args[1] == f.plistAt:
		f.loaded = f.loaded && (f.stuck || f.ignoresUnload)
		return nil
	case args[0] == "bootout" && args[1] == "system/"+f.label:
		f.loaded = f.loaded && f.stuck
		return nil
	case args[0] == "list" && args[1] == f.label && f.loaded:
		return nil
	}
	return errors.New("exit status 113")
}

// legacyMac is a temp root laid out like a Mac upgraded from a release in
// /usr/local/bin: the loaded KeepAlive job runs the old ctrld.
type legacyMac struct {
	root, legacy, plist string
	svc                 Service
	launchd             *fakeLaunchd
	darwin              Darwin
}

func newLegacyMac(t *testing.T, format int) *legacyMac {
	t.Helper()
	root := t.TempDir()
	m := &legacyMac{root: root, legacy: filepath.Join(root, "usr", "local", "bin"), plist: filepath.Join(root, "Library", "LaunchDaemons", "ctrld.plist")}
	newDir := filepath.Join(root, "Library", "ControlD")
	for _, d := range []string{m.legacy, filepath.Dir(m.plist), newDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, body := range map[string]string{"ctrld": "old", "ctrld-install": "old", "brew-tool": "keep"} {
		os.WriteFile(filepath.Join(m.legacy, name), []byte(body), 0o755)
	}
	for _, name := range []string{"ctrld", "ctrld-install"} {
		os.WriteFile(filepath.Join(newDir, name), []byte("new"), 0o755)
	}
	writePlist(t, m.plist, jobFor(filepath.Join(m.legacy, "ctrld")), format)
	m.svc = Service{Name: "ctrld", Ctrld: filepath.Join(newDir, "ctrld"), Files: []string{m.plist}}
	m.launchd = &fakeLaunchd{t: t, label: "ctrld", loaded: true, plistAt: m.plist,
		needs: []string{filepath.Join(m.legacy, "ctrld"), filepath.Join(m.legacy, "ctrld-install")}}
	m.darwin = Darwin{Run: m.launchd.run, LegacyDir: m.legacy}
	return m
}

func jobFor(program string) map[string]any {
	return map[string]any{"Label": "ctrld", "KeepAlive": true, "RunAtLoad": true,
		"ProgramArguments": []any{program, "run", "--config=/etc/controld/ctrld.toml"}}
}

func writePlist(t *testing.T, path string, job map[string]any, format int) {
	t.Helper()
	data, err := plist.Marshal(job, format)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func readPlist(t *testing.T, path string) (map[string]any, int) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var job map[string]any
	format, err := plist.Unmarshal(data, &job)
	if err != nil {
		t.Fatal(err)
	}
	return job, format
}

func (m *legacyMac) exists(name string) bool {
	_, err := os.Lstat(filepath.Join(m.legacy, name))
	return err == nil
}

// The job is unloaded, and launchd confirms it, before the plist changes
// and before the old binaries go; everything else in the job is kept, in
// its format.
func TestMoveOffLegacyDirUnloadsBeforeItRemoves(t *testing.T) {
	for name, format := range map[string]int{"xml": plist.XMLFormat, "binary": plist.BinaryFormat} {
		t.Run(name, func(t *testing.T) {
			m := newLegacyMac(t, format)
			moveUnloadingFirst(t, m)
			job, got := readPlist(t, m.plist)
			if want := jobFor(m.svc.Ctrld); got != format || !equalJobs(job, want) {
				t.Fatalf("plist now %v (format %d), want %v", job, got, want)
			}
			if info, _ := os.Stat(m.plist); info.Mode().Perm() != jobPlistMode {
				t.Errorf("plist mode %v", info.Mode())
			}
			if m.exists("ctrld") || m.exists("ctrld-install") {
				t.Error("old binaries left behind")
			}
			if !m.exists("brew-tool") {
				t.Error("removed a file that is not ours")
			}
			if left, _ := filepath.Glob(filepath.Join(filepath.Dir(m.plist), ".*")); len(left) != 0 {
				t.Errorf("temporary files left: %v", left)
			}
		})
	}
}

func equalJobs(a, b map[string]any) bool {
	x, _ := plist.Marshal(a, plist.XMLFormat)
	y, _ := plist.Marshal(b, plist.XMLFormat)
	return bytes.Equal(x, y)
}

// While launchd still has the job after unload and bootout, nothing
// changes: the job keeps its old binary rather than one a Homebrew owner
// puts back after a removal.
func TestMoveOffLegacyDirChangesNothingWhileTheJobIsLoaded(t *testing.T) {
	m := newLegacyMac(t, plist.XMLFormat)
	before, _ := os.ReadFile(m.plist)
	m.launchd.stuck = true
	if err := m.darwin.MoveOffLegacyDir(context.Background(), m.svc); !errors.Is(err, ErrJobStillLoaded) {
		t.Fatalf("err %v, want %v", err, ErrJobStillLoaded)
	}
	want := []string{launchctl + " unload " + m.plist, launchctl + " list ctrld", launchctl + " bootout system/ctrld", launchctl + " list ctrld"}
	if strings.Join(m.launchd.calls, "\n") != strings.Join(want, "\n") {
		t.Fatalf("launchctl calls %q", m.launchd.calls)
	}
	if now, _ := os.ReadFile(m.plist); !bytes.Equal(now, before) {
		t.Error("the plist changed")
	}
	if !m.exists("ctrld") || !m.exists("ctrld-install") {
		t.Error("old binaries removed under a loaded job")
	}
}

// When unload leaves the job loaded, bootout is tried, and confirmed.
func TestMoveOffLegacyDirFallsBackToBootout(t *testing.T) {
	m := newLegacyMac(t, plist.XMLFormat)
	m.launchd.ignoresUnload = true
	if err := m.darwin.MoveOffLegacyDir(context.Background(), m.svc); err != nil {
		t.Fatal(err)
	}
	want := []string{launchctl + " unload " + m.plist, launchctl + " list ctrld", launchctl + " bootout system/ctrld", launchctl + " list ctrld"}
	if strings.Join(m.launchd.calls, "\n") != strings.Join(want, "\n") {
		t.Fatalf("launchctl calls %q", m.launchd.calls)
	}
	if m.launchd.loaded || m.exists("ctrld") {
		t.Fatalf("loaded %v, old ctrld left %v", m.launchd.loaded, m.exists("ctrld"))
	}
}

// An interrupt while launchctl runs proves nothing about the job: the
// move stops there, the next run finishes it.
func TestMoveOffLegacyDirStopsWhenInterrupted(t *testing.T) {
	m := newLegacyMac(t, plist.XMLFormat)
	before, _ := os.ReadFile(m.plist)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	m.launchd.stuck = true
	m.launchd.onCall = func(args []string) {
		if args[0] == "list" {
			cancel()
		}
	}
	if err := m.darwin.MoveOffLegacyDir(ctx, m.svc); !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want the interrupt", err)
	}
	if now, _ := os.ReadFile(m.plist); !bytes.Equal(now, before) {
		t.Error("the plist changed")
	}
	if !m.exists("ctrld") || !m.exists("ctrld-install") {
		t.Error("old binaries removed")
	}
	m.launchd.stuck = false
	if err := m.darwin.MoveOffLegacyDir(context.Background(), m.svc); err != nil || m.exists("ctrld") {
		t.Fatalf("the next run did not finish the move: %v", err)
	}
}

// A job that already runs the new binary is left alone, and launchctl is
// not called; a ctrld in /usr/local/bin is then not ours (Homebrew's,
// say) and stays. The wrapper's old copy goes.
func TestMoveOffLegacyDirLeavesACurrentJob(t *testing.T) {
	m := newLegacyMac(t, plist.XMLFormat)
	writePlist(t, m.plist, jobFor(m.svc.Ctrld), plist.XMLFormat)
	before, _ := os.ReadFile(m.plist)
	if err := m.darwin.MoveOffLegacyDir(context.Background(), m.svc); err != nil {
		t.Fatal(err)
	}
	if len(m.launchd.calls) != 0 {
		t.Errorf("launchctl called: %q", m.launchd.calls)
	}
	if now, _ := os.ReadFile(m.plist); !bytes.Equal(now, before) {
		t.Error("the plist changed")
	}
	if !m.exists("ctrld") || m.exists("ctrld-install") {
		t.Errorf("ctrld kept %v, ctrld-install removed %v; want both", m.exists("ctrld"), !m.exists("ctrld-install"))
	}
}

// A LegacyDir reached through a link (to the new folder, say) has nothing
// removed in it; the job is still moved.
func TestMoveOffLegacyDirRemovesNothingThroughALink(t *testing.T) {
	m := newLegacyMac(t, plist.XMLFormat)
	link := filepath.Join(m.root, "linked-bin")
	if err := os.Symlink(filepath.Dir(m.svc.Ctrld), link); err != nil {
		t.Fatal(err)
	}
	writePlist(t, m.plist, jobFor(filepath.Join(link, "ctrld")), plist.XMLFormat)
	m.darwin.LegacyDir = link
	m.launchd.needs = nil
	if err := m.darwin.MoveOffLegacyDir(context.Background(), m.svc); !errors.Is(err, ErrLegacyCopiesLeft) {
		t.Fatalf("err %v, want %v", err, ErrLegacyCopiesLeft)
	}
	for _, name := range []string{"ctrld", "ctrld-install"} {
		if _, err := os.Stat(filepath.Join(filepath.Dir(m.svc.Ctrld), name)); err != nil {
			t.Errorf("the new %s was removed through the link", name)
		}
	}
	if job, _ := readPlist(t, m.plist); !equalJobs(job, jobFor(m.svc.Ctrld)) {
		t.Errorf("job not moved: %v", job)
	}
}

func TestMoveOffLegacyDirWithoutAJob(t *testing.T) {
	m := newLegacyMac(t, plist.XMLFormat)
	os.Remove(m.plist)
	if err := m.darwin.MoveOffLegacyDir(context.Background(), m.svc); err != nil {
		t.Fatal(err)
	}
	if len(m.launchd.calls) != 0 || !m.exists("ctrld") || m.exists("ctrld-install") {
		t.Fatalf("calls %q, ctrld %v, ctrld-install %v", m.launchd.calls, m.exists("ctrld"), m.exists("ctrld-install"))
	}
	if (Darwin{Run: m.launchd.run}).MoveOffLegacyDir(context.Background(), m.svc) != nil {
		t.Fatal("no LegacyDir: no move")
	}
}

// A plist that cannot be decoded is not moved, and its old binary stays.
func TestMoveOffLegacyDirLeavesAnUnreadableJob(t *testing.T) {
	m := newLegacyMac(t, plist.XMLFormat)
	os.WriteFile(m.plist, []byte("<plist><dict><key>"), 0o644)
	if err := m.darwin.MoveOffLegacyDir(context.Background(), m.svc); !errors.Is(err, ErrJobUnreadable) {
		t.Fatalf("err %v, want %v", err, ErrJobUnreadable)
	}
	if len(m.launchd.calls) != 0 || !m.exists("ctrld") {
		t.Fatalf("calls %q, old ctrld kept %v", m.launchd.calls, m.exists("ctrld"))
	}
}

// moveUnloadingFirst moves m off the legacy folder and checks that the
// plist stays as it was until launchd confirmed the unload.
func moveUnloadingFirst(t *testing.T, m *legacyMac) {
	t.Helper()
	before, _ := os.ReadFile(m.plist)
	m.launchd.onCall = func([]string) {
		if now, _ := os.ReadFile(m.plist); !bytes.Equal(now, before) {
			t.Error("the plist changed before launchd confirmed the unload")
		}
	}
	if err := m.darwin.MoveOffLegacyDir(context.Background(), m.svc); err != nil {
		t.Fatal(err)
	}
	want := []string{launchctl + " unload " + m.plist, launchctl + " list ctrld"}
	if strings.Join(m.launchd.calls, "\n") != strings.Join(want, "\n") {
		t.Fatalf("launchctl calls %q", m.launchd.calls)
	}
}
