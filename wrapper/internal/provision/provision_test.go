//go:build unix

package provision

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/settings"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/platform"
)

// shCtrld is a tiny ctrld for the flow's unit tests: start and status exit
// with the given codes and log their argv.
func shCtrld(t *testing.T, startExit, statusExit int) (path, log string) {
	t.Helper()
	dir := t.TempDir()
	path, log = filepath.Join(dir, "ctrld"), filepath.Join(dir, "calls")
	script := "#!/bin/sh\necho \"$@\" >> " + log + "\ncase \"$1\" in\n" +
		"start) exit " + strconv.Itoa(startExit) + ";;\nstatus) exit " + strconv.Itoa(statusExit) + ";;\nesac\nexit 0\n"
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path, log
}

func newProvisioner(t *testing.T, ctrld string, osys platform.OS, files []string, given settings.Settings) (*Provisioner, *warnings) {
	w := &warnings{}
	home := t.TempDir()
	return &Provisioner{
		Config: Config{
			Ctrld: ctrld, Home: home, RecordDir: home, ServiceFiles: files,
			Timeout: 10 * time.Second, GateTimeout: time.Second, Poll: 50 * time.Millisecond, Grace: time.Second,
			Given: given, Env: CtrldEnv(append(os.Environ(), TokenEnv+"="+testenv.Canary), "linux"),
		},
		OS: osys, Log: w,
	}, w
}

type runnerLog struct{ calls []string }

func (r *runnerLog) run(_ context.Context, _ []string, name string, args ...string) error {
	r.calls = append(r.calls, name+" "+strings.Join(args, " "))
	return nil
}

// On macOS ctrld can exit 0 and report running without the launchd plist
// in place; the gate must catch that.
func TestMacGateRequiresPlist(t *testing.T) {
	ctrld, _ := shCtrld(t, 0, 0)
	plist := filepath.Join(t.TempDir(), "ctrld.plist")
	p, _ := newProvisioner(t, ctrld, platform.Darwin{Run: (&runnerLog{}).run}, []string{plist},
		settings.Settings{settings.ProvisionToken: testenv.Canary})
	if o := p.Run(context.Background()); o.Exit() != 65 {
		t.Fatalf("no plist: got %q", o.Line())
	}
	go func() {
		time.Sleep(200 * time.Millisecond)
		os.WriteFile(plist, []byte("<plist/>"), 0o644)
	}()
	p.Config.GateTimeout = 5 * time.Second
	if o := p.Run(context.Background()); !o.OK {
		t.Fatalf("plist appeared during the gate: got %q", o.Line())
	}
}

func TestMacUpgradeReloadsThroughLaunchctl(t *testing.T) {
	ctrld, calls := shCtrld(t, 0, 0)
	plist := filepath.Join(t.TempDir(), "ctrld.plist")
	os.WriteFile(plist, []byte("<plist/>"), 0o644)
	r := &runnerLog{}
	p, _ := newProvisioner(t, ctrld, platform.Darwin{Run: r.run}, []string{plist}, settings.Settings{})
	if o := p.Run(context.Background()); !o.OK {
		t.Fatalf("got %q", o.Line())
	}
	if strings.Join(r.calls, ";") != "/bin/launchctl unload "+plist+";/bin/launchctl load -w "+plist {
		t.Fatalf("launchctl calls %q", r.calls)
	}
	data, _ := os.ReadFile(calls)
	if strings.Contains(string(data), "start") {
		t.Fatalf("upgrade without InterceptMode ran ctrld start: %q", data)
	}
}

type scm struct{ running bool }

func (s *scm) Exists(string) bool                    { return true }
func (s *scm) Running(string) bool                   { return s.running }
func (s *scm) Restart(context.Context, string) error { s.running = true; return nil }

func TestWindowsGateAsksTheSCM(t *testing.T) {
	ctrld, _ := shCtrld(t, 0, 0)
	m := &scm{}
	win := platform.Windows{SCM: m, ReadPolicy: func() settings.Settings {
		return settings.Settings{settings.InterceptMode: "intercept-dns"}
	}}
	p, _ := newProvisioner(t, ctrld, win, nil, settings.Settings{})
	if o := p.Run(context.Background()); o.Exit() != 65 {
		t.Fatalf("service not running: got %q", o.Line())
	}
	m.running = true
	if o := p.Run(context.Background()); !o.OK {
		t.Fatalf("got %q", o.Line())
	}
}

func TestServiceNameFollowsBinary(t *testing.T) {
	for path, want := range map[string]string{
		"/usr/bin/ctrld": "ctrld", "/usr/local/bin/ctrld-client": "ctrld-client",
		`C:\Program Files\ControlD\ctrld-client.EXE`: "ctrld-client",
	} {
		if got := ServiceName(filepath.FromSlash(strings.ReplaceAll(path, `\`, "/"))); got != want {
			t.Errorf("ServiceName(%q) = %q", path, got)
		}
	}
}

func TestCtrldEnvDropsTheToken(t *testing.T) {
	env := CtrldEnv([]string{"A=1", TokenEnv + "=" + testenv.Canary, "CTRLD_PROVISION_TOKENX=keep"}, "linux")
	if strings.Contains(strings.Join(env, " "), testenv.Canary) || len(env) != 2 {
		t.Fatalf("got %q", env)
	}
}

// Windows environment names ignore case: any spelling of the token
// variable reaches ctrld as the token. Elsewhere another spelling is
// another variable and stays.
func TestCtrldEnvIgnoresCaseOnWindows(t *testing.T) {
	env := []string{"A=1", "ctrld_provision_token=" + testenv.Canary, "Ctrld_Provision_Token=" + testenv.Canary, "CTRLD_PROVISION_TOKENX=keep"}
	got := CtrldEnv(env, "windows")
	if strings.Contains(strings.Join(got, " "), testenv.Canary) || len(got) != 2 {
		t.Fatalf("windows: got %q", got)
	}
	if got := CtrldEnv(env, "linux"); len(got) != 4 {
		t.Fatalf("linux: got %q", got)
	}
}
