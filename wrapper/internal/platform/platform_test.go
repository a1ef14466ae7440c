package platform

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/settings"
)

type call struct {
	env  []string
	name string
	args []string
}

type fakeRunner struct {
	calls []call
	fail  map[string]bool // "name arg0" → fail
}

func (f *fakeRunner) run(_ context.Context, env []string, name string, args ...string) error {
	f.calls = append(f.calls, call{env, name, args})
	if f.fail[name+" "+args[0]] {
		return errors.New("exit status 1")
	}
	return nil
}

func (f *fakeRunner) lines() []string {
	var out []string
	for _, c := range f.calls {
		out = append(out, c.name+" "+strings.Join(c.args, " "))
	}
	return out
}

type fakeSCM struct {
	services map[string]bool // name → running
	restarts []string
}

func (f *fakeSCM) Exists(name string) bool  { _, ok := f.services[name]; return ok }
func (f *fakeSCM) Running(name string) bool { return f.services[name] }
func (f *fakeSCM) Restart(_ context.Context, name string) error {
	if _, ok := f.services[name]; !ok {
		return errors.New("service does not exist")
	}
	f.restarts = append(f.restarts, name)
	f.services[name] = true
	return nil
}

func TestWindowsUsesTheSCM(t *testing.T) {
	scm := &fakeSCM{services: map[string]bool{"ctrld": false}}
	w := Windows{SCM: scm, ReadPolicy: func() settings.Settings {
		return settings.Settings{settings.InterceptMode: "standard"}
	}}
	ctx := context.Background()
	if !w.Installed(Service{Name: "ctrld"}) || w.Installed(Service{Name: "ctrld-client"}) {
		t.Fatal("upgrade detection must ask the SCM by the binary's name")
	}
	if w.Gate(ctx, Service{Name: "ctrld"}) {
		t.Fatal("gate passed with the service stopped")
	}
	if err := w.Reload(ctx, Service{Name: "ctrld"}); err != nil || !w.Gate(ctx, Service{Name: "ctrld"}) {
		t.Fatalf("reload: %v", err)
	}
	if w.Policy()[settings.InterceptMode] != "standard" {
		t.Fatal("policy not read")
	}
	if w.Defaults(`C:\Program Files\ControlD`).Home != `C:\Program Files\ControlD` {
		t.Fatal("Windows home must be the ctrld folder")
	}
}

// install-msi runs msiexec from the system folder the OS reports, never
// from PATH; with no system folder there is no msiexec at all.
func TestMsiexecComesFromTheSystemFolder(t *testing.T) {
	sys32 := filepath.Join("C:", "Windows", "System32")
	if got := (Windows{System32: sys32}).Msiexec(); got != filepath.Join(sys32, "msiexec.exe") {
		t.Fatalf("Msiexec() = %q", got)
	}
	for _, osys := range []OS{Windows{}, Linux{}, Darwin{}} {
		if got := osys.Msiexec(); got != "" {
			t.Fatalf("%T.Msiexec() = %q, want none", osys, got)
		}
	}
}
