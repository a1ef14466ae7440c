//go:build unix

package platform

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDarwinReloadUnloadsThenLoads(t *testing.T) {
	r := &fakeRunner{fail: map[string]bool{"/bin/launchctl unload": true}}
	d := Darwin{Run: r.run}
	svc := Service{Name: "ctrld", Files: d.ServiceFiles("ctrld"), Env: []string{"A=1"}}
	if err := d.Reload(context.Background(), svc); err != nil {
		t.Fatalf("a failed unload must not fail the reload: %v", err)
	}
	want := []string{
		"/bin/launchctl unload /Library/LaunchDaemons/ctrld.plist",
		"/bin/launchctl load -w /Library/LaunchDaemons/ctrld.plist",
	}
	if got := r.lines(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got %q", got)
	}
	r.fail["/bin/launchctl load"] = true
	if err := d.Reload(context.Background(), svc); err == nil {
		t.Fatal("a failed load must fail the reload")
	}
}

func TestDarwinNamesFollowTheBinary(t *testing.T) {
	d := Darwin{}
	if got := d.ServiceFiles("ctrld-client"); got[0] != "/Library/LaunchDaemons/ctrld-client.plist" {
		t.Fatalf("got %v", got)
	}
	def := d.Defaults("/usr/local/bin")
	if def.Home != "/etc/controld" || def.Prefs != ManagedPrefsPath || def.PrefsWait <= 0 {
		t.Fatalf("macOS defaults: %+v", def)
	}
}

func TestDarwinGateNeedsThePlist(t *testing.T) {
	dir := t.TempDir()
	plist := filepath.Join(dir, "ctrld.plist")
	d := Darwin{}
	svc := Service{Name: "ctrld", Files: []string{plist}}
	if d.Gate(context.Background(), svc) || d.Installed(svc) {
		t.Fatal("gate passed without the plist")
	}
	os.WriteFile(plist, []byte("<plist/>"), 0o644)
	if !d.Gate(context.Background(), svc) || !d.Installed(svc) {
		t.Fatal("gate failed with the plist")
	}
}

func TestLinuxReloadGoesThroughCtrld(t *testing.T) {
	r := &fakeRunner{}
	l := Linux{Run: r.run}
	svc := Service{Name: "ctrld-client", Ctrld: "/usr/bin/ctrld-client", Env: []string{"PATH=/usr/bin"}}
	if err := l.Reload(context.Background(), svc); err != nil {
		t.Fatal(err)
	}
	if got := r.lines(); len(got) != 1 || got[0] != "/usr/bin/ctrld-client restart" {
		t.Fatalf("got %q", got)
	}
	if strings.Join(r.calls[0].env, " ") != "PATH=/usr/bin" {
		t.Fatal("reload did not use the service's environment")
	}
	files := l.ServiceFiles("ctrld-client")
	if files[0] != "/etc/systemd/system/ctrld-client.service" || files[len(files)-1] != "/etc/init.d/ctrld-client" {
		t.Fatalf("service files %v", files)
	}
}

// A restart that fails may have stopped the daemon: the sysv service is
// started again, so the upgrade never leaves the machine without it.
func TestLinuxReloadStartsTheServiceAgainAfterAFailedRestart(t *testing.T) {
	root := t.TempDir()
	l := Linux{Paths: LinuxPaths{Proc: filepath.Join(root, "proc"), Etc: filepath.Join(root, "etc"), RunDir: filepath.Join(root, "run"), Systemctl: "/fake/systemctl"}}
	os.MkdirAll(l.Paths.Proc, 0o755)
	os.MkdirAll(filepath.Join(l.Paths.Etc, "init.d"), 0o755)
	script := filepath.Join(l.Paths.Etc, "init.d", "ctrld")
	os.WriteFile(script, []byte("#!/bin/sh\n"), 0o755)
	svc := Service{Name: "ctrld", Ctrld: "/usr/bin/ctrld"}
	r := &fakeRunner{fail: map[string]bool{"/usr/bin/ctrld restart": true}}
	l.Run = r.run
	if err := l.Reload(context.Background(), svc); err == nil {
		t.Fatal("a failed restart must fail the reload")
	}
	// While no daemon shows up the start is asked for again.
	if got := r.lines(); len(got) < 2 || got[0] != "/usr/bin/ctrld restart" || !allEqual(got[1:], script+" start") {
		t.Fatalf("got %q", got)
	}
	// On systemd the start is queued through systemctl.
	os.MkdirAll(filepath.Join(l.Paths.RunDir, "systemd", "system"), 0o755)
	r.calls = nil
	l.Reload(context.Background(), svc)
	if got := r.lines(); len(got) < 2 || got[0] != "/usr/bin/ctrld restart" || !allEqual(got[1:], "/fake/systemctl --no-block start ctrld.service") {
		t.Fatalf("systemd: got %q", got)
	}
}

func allEqual(lines []string, want string) bool {
	for _, l := range lines {
		if l != want {
			return false
		}
	}
	return true
}
