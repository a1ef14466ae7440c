//go:build unix

package platform

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"howett.net/plist"
)

const (
	testUID  = "a1b2c3d4e5"
	v1Binary = "/usr/local/bin/ctrld"
)

// The daemon's command as each init system's definition holds it: the
// systemd unit quotes every argument, the init script nests those quotes
// in its cmd="...", the SCM's ImagePath quotes the path only.
var (
	v1Unit = "[Unit]\nDescription=Control-D DNS Proxy Service\n\n[Service]\nStartLimitInterval=5\n" +
		`ExecStart=/usr/local/bin/ctrld "run" "--iface=auto" "--homedir=/etc/controld" "--cd=` + testUID + `" "--config=/etc/controld/ctrld.toml"` +
		"\nRestart=always\n\n[Install]\nWantedBy=multi-user.target\n"
	v1Script = "#!/bin/sh\n# For RedHat and cousins:\n# description: Control-D DNS Proxy Service\n\n" +
		`cmd="/usr/local/bin/ctrld "run" "--iface=auto" "--cd=` + testUID + `" "--config=/etc/controld/ctrld.toml""` +
		"\nname=$(basename $(readlink -f $0))\npid_file=\"/var/run/$name.pid\"\n"
	v1ImagePath = `"C:\Program Files\ControlD\ctrld.exe" run --iface=auto --homedir=C:\ProgramData\ctrld --cd=` + testUID
)

func TestUIDIsReadFromEveryDefinitionForm(t *testing.T) {
	for text, want := range map[string]string{
		v1Unit:                              testUID,
		v1Script:                            testUID,
		v1ImagePath:                         testUID,
		`ctrld run --cd=` + testUID:         testUID,
		`ctrld run --cd-org=sometoken12345`: "",
		`ctrld run --cd=$(reboot)`:          "",
		`ctrld run --cd=`:                   "",
		`ctrld run x--cd=` + testUID:        "",
		`ctrld run --cd=` + strings.Repeat("a", maxUID+1): "",
	} {
		if got := uidIn(text); got != want {
			t.Errorf("uidIn(%q) = %q, want %q", text, got, want)
		}
	}
}

// linuxWithLine is a temp /etc holding v1's service as ctrld writes it,
// beside our ctrld-client and v1 binaries; systemd says whether
// /run/systemd/system exists.
func linuxWithLine(t *testing.T, systemd bool) (Linux, *fakeRunner, Service) {
	t.Helper()
	root := t.TempDir()
	etc, run := filepath.Join(root, "etc"), filepath.Join(root, "run")
	for _, d := range []string{"systemd/system/multi-user.target.wants", "init.d", "rc2.d", "rc0.d"} {
		os.MkdirAll(filepath.Join(etc, d), 0o755)
	}
	os.WriteFile(filepath.Join(etc, "systemd/system/ctrld.service"), []byte(v1Unit), 0o644)
	os.Symlink("../ctrld.service", filepath.Join(etc, "systemd/system/multi-user.target.wants/ctrld.service"))
	os.WriteFile(filepath.Join(etc, "init.d/ctrld"), []byte(v1Script), 0o755)
	os.Symlink("../init.d/ctrld", filepath.Join(etc, "rc2.d/S01ctrld"))
	os.Symlink("../init.d/ctrld", filepath.Join(etc, "rc0.d/K01ctrld"))
	// The client line's own links stay: they are not the other line's.
	os.Symlink("../init.d/ctrld-client", filepath.Join(etc, "rc2.d/S01ctrld-client"))
	if systemd {
		os.MkdirAll(filepath.Join(run, "systemd", "system"), 0o755)
	}
	bin := filepath.Join(root, "bin")
	os.MkdirAll(bin, 0o755)
	os.WriteFile(filepath.Join(bin, "ctrld-client"), []byte("client"), 0o755)
	os.WriteFile(filepath.Join(bin, "ctrld"), []byte("v1"), 0o755)
	r := &fakeRunner{}
	l := Linux{Run: r.run, Paths: LinuxPaths{Etc: etc, RunDir: run, Systemctl: "/bin/systemctl"}}
	return l, r, Service{Name: "ctrld-client", Ctrld: filepath.Join(bin, "ctrld-client")}
}

func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return nil
		}
		if info.Mode()&os.ModeSymlink != 0 {
			target, _ := os.Readlink(p)
			out[p] = "-> " + target
			return nil
		}
		data, _ := os.ReadFile(p)
		out[p] = info.Mode().String() + " " + string(data)
		return nil
	})
	return out
}

func TestLinuxMoveRemovesAndRestoresTheOtherLine(t *testing.T) {
	for _, systemd := range []bool{true, false} {
		name := map[bool]string{true: "systemd", false: "sysv"}[systemd]
		t.Run(name, func(t *testing.T) {
			l, r, svc := linuxWithLine(t, systemd)
			before := snapshot(t, l.Paths.Etc)
			o, found := l.OtherLine(svc, "ctrld")
			if !found || o.UID != testUID || o.Ctrld != v1Binary || o.Binary != filepath.Join(filepath.Dir(svc.Ctrld), "ctrld") {
				t.Fatalf("OtherLine = %+v, %v", o, found)
			}
			if len(o.Files) != 5 {
				t.Fatalf("definitions %q, want the unit, its link, the script and its two links", o.Files)
			}
			if err := l.RemoveOther(context.Background(), &o); err != nil {
				t.Fatal(err)
			}
			if _, still := l.OtherLine(svc, "ctrld"); still {
				t.Fatal("the other line is still installed after RemoveOther")
			}
			if _, err := os.Lstat(filepath.Join(l.Paths.Etc, "rc2.d/S01ctrld-client")); err != nil {
				t.Errorf("this line's link went: %v", err)
			}
			removed := len(r.calls)
			if err := l.RestoreOther(context.Background(), o); err != nil {
				t.Fatal(err)
			}
			after := snapshot(t, l.Paths.Etc)
			for p, was := range before {
				if after[p] != was {
					t.Errorf("%s restored as %q, was %q", p, after[p], was)
				}
			}
			restore := r.lines()[removed:]
			want := []string{l.Paths.Etc + "/init.d/ctrld start"}
			if systemd {
				want = []string{"/bin/systemctl daemon-reload", "/bin/systemctl --no-block start ctrld.service"}
				if !slices.Contains(r.lines()[:removed], "/bin/systemctl --no-block stop ctrld.service") {
					t.Errorf("the unit was not stopped: %q", r.lines()[:removed])
				}
			}
			if !slices.Equal(restore, want) {
				t.Errorf("restore ran %q, want %q", restore, want)
			}
		})
	}
}

// Going back: v1's ctrld finds the client line's service the same way.
func TestLinuxFindsTheClientLineFromTheFirst(t *testing.T) {
	l, _, svc := linuxWithLine(t, false)
	unit := strings.ReplaceAll(v1Unit, "/usr/local/bin/ctrld ", "/usr/local/bin/ctrld-client ")
	os.WriteFile(filepath.Join(l.Paths.Etc, "systemd/system/ctrld-client.service"), []byte(unit), 0o644)
	v1 := Service{Name: "ctrld", Ctrld: filepath.Join(filepath.Dir(svc.Ctrld), "ctrld")}
	o, found := l.OtherLine(v1, "ctrld-client")
	if !found || o.UID != testUID || o.Ctrld != "/usr/local/bin/ctrld-client" || o.Binary != svc.Ctrld {
		t.Fatalf("OtherLine = %+v, %v", o, found)
	}
	if _, found := l.OtherLine(v1, "ctrld"); found {
		t.Fatal("a line is never the other line of itself")
	}
}

func TestLinuxWithoutEtcFindsNoOtherLine(t *testing.T) {
	l, _, svc := linuxWithLine(t, true)
	l.Paths.Etc = ""
	if _, found := l.OtherLine(svc, "ctrld"); found {
		t.Fatal("found a line without /etc")
	}
}

func TestMacMoveUnloadsTheOtherJobBeforeItsPlistGoes(t *testing.T) {
	dir := t.TempDir()
	jobs, bin := filepath.Join(dir, "LaunchDaemons"), filepath.Join(dir, "ControlD")
	os.MkdirAll(jobs, 0o755)
	os.MkdirAll(bin, 0o755)
	os.WriteFile(filepath.Join(bin, "ctrld-client"), []byte("client"), 0o755)
	os.WriteFile(filepath.Join(bin, "ctrld"), []byte("v1"), 0o755)
	path := filepath.Join(jobs, "ctrld.plist")
	job := map[string]any{"Label": "ctrld", "KeepAlive": true,
		"ProgramArguments": []any{filepath.Join(bin, "ctrld"), "run", "--iface=auto", "--cd=" + testUID}}
	writePlist(t, path, job, plist.XMLFormat)
	saved, _ := os.ReadFile(path)
	launchd := &fakeLaunchd{t: t, label: "ctrld", loaded: true, plistAt: path, needs: []string{path}}
	d := Darwin{Run: launchd.run, JobsDir: jobs}
	svc := Service{Name: "ctrld-client", Ctrld: filepath.Join(bin, "ctrld-client")}
	o, found := d.OtherLine(svc, "ctrld")
	if !found || o.UID != testUID || o.Ctrld != filepath.Join(bin, "ctrld") || o.Binary != o.Ctrld {
		t.Fatalf("OtherLine = %+v, %v", o, found)
	}
	if err := d.RemoveOther(context.Background(), &o); err != nil {
		t.Fatal(err)
	}
	if launchd.loaded {
		t.Fatal("the job is still loaded")
	}
	if _, err := os.Stat(path); err == nil {
		t.Fatal("the plist is still there")
	}
	r := &fakeRunner{}
	d.Run = r.run
	if err := d.RestoreOther(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if back, _ := os.ReadFile(path); !bytes.Equal(back, saved) {
		t.Errorf("plist restored as %q", back)
	}
	if got := r.lines(); !slices.Equal(got, []string{"/bin/launchctl load -w " + path}) {
		t.Errorf("restore ran %q", got)
	}
}

func TestMacJobThatStaysLoadedIsNotRemoved(t *testing.T) {
	jobs := t.TempDir()
	path := filepath.Join(jobs, "ctrld.plist")
	writePlist(t, path, jobFor(v1Binary), plist.XMLFormat)
	launchd := &fakeLaunchd{t: t, label: "ctrld", loaded: true, stuck: true, plistAt: path}
	d := Darwin{Run: launchd.run, JobsDir: jobs}
	o, _ := d.OtherLine(Service{Name: "ctrld-client"}, "ctrld")
	if err := d.RemoveOther(context.Background(), &o); !errors.Is(err, ErrOtherLeft) {
		t.Fatalf("got %v", err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("the plist of a loaded job went: %v", err)
	}
}

// removerSCM is an SCM that can delete and create services, recording
// each step.
type removerSCM struct {
	services map[string]SCMService
	running  map[string]bool
	steps    []string
}

func (f *removerSCM) Exists(name string) bool                      { _, ok := f.services[name]; return ok }
func (f *removerSCM) Running(name string) bool                     { return f.running[name] }
func (f *removerSCM) Restart(_ context.Context, name string) error { return nil }
func (f *removerSCM) Config(name string) (SCMService, error) {
	s, ok := f.services[name]
	if !ok {
		return SCMService{}, errors.New("no such service")
	}
	return s, nil
}
func (f *removerSCM) Delete(_ context.Context, name string) error {
	f.steps = append(f.steps, "delete "+name)
	delete(f.services, name)
	f.running[name] = false
	return nil
}
func (f *removerSCM) Create(name string, s SCMService) error {
	f.steps = append(f.steps, "create "+name+" "+s.ImagePath)
	f.services[name] = s
	return nil
}
func (f *removerSCM) Start(name string) error {
	f.steps = append(f.steps, "start "+name)
	f.running[name] = true
	return nil
}

func TestWindowsMoveDeletesAndRecreatesTheOtherService(t *testing.T) {
	v1 := SCMService{ImagePath: v1ImagePath, DisplayName: "Control-D Helper Service", StartType: 2}
	m := &removerSCM{services: map[string]SCMService{"ctrld": v1}, running: map[string]bool{"ctrld": true}}
	w := Windows{SCM: m}
	o, found := w.OtherLine(Service{Name: "ctrld-client", Ctrld: `C:\Program Files\ControlD\ctrld-client.exe`}, "ctrld")
	if !found || o.UID != testUID || o.Ctrld != `C:\Program Files\ControlD\ctrld.exe` {
		t.Fatalf("OtherLine = %+v, %v", o, found)
	}
	if err := w.RemoveOther(context.Background(), &o); err != nil || m.Exists("ctrld") {
		t.Fatalf("RemoveOther: %v; still there: %v", err, m.Exists("ctrld"))
	}
	if err := w.RestoreOther(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	want := []string{"delete ctrld", "create ctrld " + v1ImagePath, "start ctrld"}
	if !slices.Equal(m.steps, want) || m.services["ctrld"] != v1 {
		t.Fatalf("steps %q, service %+v", m.steps, m.services["ctrld"])
	}
}
