package provision

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/internal/settings"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/leftover"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/platform"
)

const fakeSystemctl = "/fake/bin/systemctl"

// systemctlLog is a fake systemctl: it records each call and, when hang
// is set, blocks until the call's bound ends.
type systemctlLog struct {
	mu    sync.Mutex
	calls []string
	hang  bool
}

func (s *systemctlLog) run(ctx context.Context, env []string, name string, args ...string) error {
	s.mu.Lock()
	s.calls = append(s.calls, name+" "+strings.Join(args, " "))
	s.mu.Unlock()
	if s.hang {
		<-ctx.Done()
		return ctx.Err()
	}
	return nil
}

// systemdRoots lays out a machine booted with systemd, ctrld's unit for
// service name installed and enabled.
func systemdRoots(t *testing.T, name string) (platform.Linux, *systemctlLog, []string) {
	t.Helper()
	root := t.TempDir()
	l := platform.Linux{Paths: platform.LinuxPaths{Proc: filepath.Join(root, "proc"), Etc: filepath.Join(root, "etc"), RunDir: filepath.Join(root, "run"), Systemctl: fakeSystemctl}}
	units := filepath.Join(l.Paths.Etc, "systemd", "system")
	for _, d := range []string{l.Paths.Proc, filepath.Join(l.Paths.RunDir, "systemd", "system"), filepath.Join(units, "multi-user.target.wants")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	unit := filepath.Join(units, name+".service")
	link := filepath.Join(units, "multi-user.target.wants", name+".service")
	os.WriteFile(unit, []byte("[Service]\nRestart=always\n"), 0o644)
	os.Symlink(unit, link)
	s := &systemctlLog{}
	l.Run = s.run
	return l, s, []string{unit, link}
}

// The name comes from the binary: ctrld-client has the unit ctrld-client.
func namedCtrld(t *testing.T, name string) string {
	t.Helper()
	sh, _ := shCtrld(t, 0, 0)
	path := filepath.Join(t.TempDir(), name)
	data, _ := os.ReadFile(sh)
	os.WriteFile(path, data, 0o755)
	return path
}

func TestUninstallOnSystemdForgetsTheUnitInOrder(t *testing.T) {
	l, systemctl, files := systemdRoots(t, names.CtrldClient)
	home := t.TempDir()
	Uninstall(context.Background(), Config{Ctrld: namedCtrld(t, names.CtrldClient), Home: home, RecordDir: home, Grace: grace}, l)
	unit := names.CtrldClient + ".service"
	want := []string{
		fakeSystemctl + " --no-block stop " + unit,
		fakeSystemctl + " disable " + unit,
		fakeSystemctl + " daemon-reload",
		fakeSystemctl + " reset-failed " + unit,
	}
	if strings.Join(systemctl.calls, "\n") != strings.Join(want, "\n") {
		t.Errorf("systemctl calls:\n%s\nwant:\n%s", strings.Join(systemctl.calls, "\n"), strings.Join(want, "\n"))
	}
	for _, f := range files {
		if _, err := os.Lstat(f); err == nil {
			t.Errorf("%s is still there", f)
		}
	}
}

// Without /run/systemd/system the machine runs sysv: systemctl is never
// called.
func TestUninstallOnSysvLeavesSystemctlAlone(t *testing.T) {
	l, systemctl, _ := systemdRoots(t, names.Ctrld)
	os.RemoveAll(filepath.Join(l.Paths.RunDir, "systemd"))
	home := t.TempDir()
	Uninstall(context.Background(), Config{Ctrld: namedCtrld(t, names.Ctrld), Home: home, RecordDir: home, Grace: grace}, l)
	if len(systemctl.calls) != 0 {
		t.Errorf("systemctl called on sysv: %q", systemctl.calls)
	}
}

// silentDaemon starts a daemon of a ctrld binary that never opens its
// control socket, as one that booted offline: the binary is a copy of sh
// (its /proc exe is the binary).
func silentDaemon(t *testing.T) (ctrld string, daemon *exec.Cmd) {
	t.Helper()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip(err)
	}
	ctrld = filepath.Join(t.TempDir(), names.Ctrld)
	data, _ := os.ReadFile(sh)
	os.WriteFile(ctrld, data, 0o755)
	daemon = exec.Command(ctrld, "-c", "sleep 60")
	if err := daemon.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond)
	return ctrld, daemon
}

// A daemon that booted offline runs without its control socket: ctrld
// uninstall would wait minutes for it, so it is not run; the clean-up
// stops the daemon itself. Run as "ctrld uninstall", the copy of sh
// would fail, exit 127.
func TestUninstallSkipsCtrldWhenItsDaemonDoesNotAnswer(t *testing.T) {
	l, systemctl, _ := systemdRoots(t, names.Ctrld)
	l.Paths.Proc = "/proc"
	ctrld, daemon := silentDaemon(t)
	done := make(chan struct{})
	go func() { daemon.Wait(); close(done) }()
	home := t.TempDir()
	began := time.Now()
	code := Uninstall(context.Background(), Config{Ctrld: ctrld, Home: home, RecordDir: home, Grace: time.Second}, l)
	if code != 0 {
		t.Errorf("ctrld uninstall ran (exit %d) against a daemon that does not answer", code)
	}
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the daemon still runs")
	}
	if took := time.Since(began); took > 5*time.Second {
		t.Errorf("took %s with nothing to wait for", took)
	}
	if len(systemctl.calls) == 0 || !strings.Contains(systemctl.calls[0], "--no-block stop") {
		t.Errorf("the unit was not stopped: %q", systemctl.calls)
	}
}

// removalContract is what a removal may take: the package's removal,
// dpkg or rpm included, has 30 s.
const removalContract = 25 * time.Second

// hungSystemctl is a systemctl that records each call, then hangs
// ignoring SIGTERM: run through ExecRunner, every call is cut short and
// killed only after its grace.
func hungSystemctl(t *testing.T) (path, calls string) {
	t.Helper()
	sleep := testenv.RequireTool(t, "sleep")
	dir := t.TempDir()
	path, calls = filepath.Join(dir, "systemctl"), filepath.Join(dir, "calls")
	script := "#!/bin/sh\necho \"$@\" >> " + calls + "\ntrap '' TERM\n" + sleep + " 120\n"
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path, calls
}

// The contract's bound, every kill grace counted: ctrld's uninstall hangs
// ignoring SIGTERM while its daemon answers, and every systemctl call
// hangs ignoring SIGTERM too. The whole uninstall still ends within 25 s,
// and systemd is still asked to forget the unit (daemon-reload,
// reset-failed).
func TestUninstallStaysWithinTheRemovalBound(t *testing.T) {
	if testing.Short() {
		t.Skip("waits out the removal budget")
	}
	t.Parallel()
	l, _, files := systemdRoots(t, names.Ctrld)
	systemctl, systemctlCalls := hungSystemctl(t)
	l.Run, l.Paths.Systemctl = platform.ExecRunner, systemctl
	ln, err := net.Listen("unix", filepath.Join(l.Paths.RunDir, names.CtrldControlSocket(names.Ctrld)))
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	dir := t.TempDir()
	ctrld := filepath.Join(dir, names.Ctrld)
	os.WriteFile(ctrld, []byte("#!/bin/sh\necho \"$@\" >> "+dir+"/calls\ntrap '' TERM\nsleep 120\n"), 0o755)
	home := t.TempDir()
	began := time.Now()
	Uninstall(context.Background(), Config{Ctrld: ctrld, Home: home, RecordDir: home, Grace: grace}, l)
	took := time.Since(began)
	if calls, _ := os.ReadFile(filepath.Join(dir, "calls")); string(calls) != "uninstall\n" {
		t.Errorf("ctrld uninstall did not run against a daemon that answers: %q", calls)
	}
	const slack = time.Second
	if took > removalContract+slack || l.Bounds().Removal > removalContract {
		t.Errorf("uninstall took %s; the removal has 25 s", took)
	}
	calls, _ := os.ReadFile(systemctlCalls)
	for _, want := range []string{"daemon-reload\n", "reset-failed ctrld.service\n"} {
		if !strings.Contains(string(calls), want) {
			t.Errorf("systemctl %q was not run; calls:\n%s", strings.TrimSpace(want), calls)
		}
	}
	for _, f := range files {
		if _, err := os.Lstat(f); err == nil {
			t.Errorf("%s is still there", f)
		}
	}
	t.Logf("took %s; systemctl calls:\n%s", took, calls)
}

// A failed fresh install runs the same clean-up: ctrld's own uninstall
// leaves its unit failed on systemd and may leave resolv.conf pointing at
// its listener; afterwards neither is left.
func TestFailedFreshInstallLeavesNoUnitAndRestoresResolvConf(t *testing.T) {
	l, systemctl, files := systemdRoots(t, names.Ctrld)
	gone := layEtc(t, l.Paths.Etc)
	ctrld, _ := shCtrld(t, 1, 0)
	p, _ := newProvisioner(t, ctrld, l, []string{filepath.Join(t.TempDir(), "none")}, settings.Settings{settings.ProvisionToken: testenv.Canary})
	if o := p.Run(context.Background()); o.Exit() != 64 {
		t.Fatalf("got %q", o.Line())
	}
	if n := len(systemctl.calls); n == 0 || !strings.HasSuffix(systemctl.calls[n-1], "reset-failed ctrld.service") {
		t.Errorf("the failed unit was not reset: %q", systemctl.calls)
	}
	for _, f := range append(files, gone...) {
		if _, err := os.Lstat(f); err == nil {
			t.Errorf("%s is still there", f)
		}
	}
	if data, _ := os.ReadFile(filepath.Join(l.Paths.Etc, leftover.ResolvConf)); string(data) != "nameserver 192.0.2.1\n" {
		t.Errorf("resolv.conf not restored from ctrld's backup: %q", data)
	}
}

// An input ctrld was never run with changes nothing: no clean-up.
func TestRefusedInputRunsNoCleanUp(t *testing.T) {
	l, systemctl, files := systemdRoots(t, names.Ctrld)
	ctrld, _ := shCtrld(t, 1, 0)
	p, _ := newProvisioner(t, ctrld, l, []string{filepath.Join(t.TempDir(), "none")}, settings.Settings{settings.ProvisionToken: "bad token"})
	if o := p.Run(context.Background()); o.Exit() != 21 {
		t.Fatalf("got %q", o.Line())
	}
	if len(systemctl.calls) != 0 {
		t.Errorf("systemctl called: %q", systemctl.calls)
	}
	if _, err := os.Lstat(files[0]); err != nil {
		t.Errorf("the unit was touched: %v", err)
	}
}

// An upgrade whose ctrld restart hangs (offline, the daemon's socket
// answering) ends within the reload budget with SERVICE_RELOAD_FAILED,
// and the service is not cleaned up: it keeps running, or is started
// again when the restart took it down.
func TestOfflineUpgradeIsBoundedAndKeepsTheService(t *testing.T) {
	if testing.Short() {
		t.Skip("waits out the reload budget")
	}
	t.Parallel()
	l, systemctl, files := systemdRoots(t, names.Ctrld)
	systemctl.hang = true // ctrld restart goes through the same runner
	ln, err := net.Listen("unix", filepath.Join(l.Paths.RunDir, names.CtrldControlSocket(names.Ctrld)))
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	ctrld, _ := shCtrld(t, 0, 0)
	p, _ := newProvisioner(t, ctrld, l, files[:1], settings.Settings{})
	p.Config.Timeout = DefaultTimeout
	began := time.Now()
	o := p.Run(context.Background())
	if took, reload := time.Since(began), l.Bounds().Reload; took > reload+time.Second || reload > 28*time.Second {
		t.Errorf("the upgrade took %s; it has 30 s, dpkg included", took)
	}
	if o.Exit() != 66 {
		t.Errorf("got %q", o.Line())
	}
	// No daemon runs after the cut-short restart: the service is started
	// again, never cleaned up.
	if want := ctrld + " restart;" + fakeSystemctl + " --no-block start ctrld.service"; strings.Join(systemctl.calls, ";") != want {
		t.Errorf("calls %q, want %q", systemctl.calls, want)
	}
}

// A daemon that booted offline does not answer: ctrld restart is not
// even tried, and the answer comes at once.
func TestUpgradeLeavesADaemonThatDoesNotAnswer(t *testing.T) {
	l, systemctl, files := systemdRoots(t, names.Ctrld)
	l.Paths.Proc = "/proc"
	ctrld, daemon := silentDaemon(t)
	defer daemon.Process.Kill()
	p, _ := newProvisioner(t, ctrld, l, files[:1], settings.Settings{})
	began := time.Now()
	if o := p.Run(context.Background()); o.Exit() != 66 {
		t.Errorf("got %q", o.Line())
	}
	if took := time.Since(began); took > 5*time.Second {
		t.Errorf("took %s", took)
	}
	if len(systemctl.calls) != 0 {
		t.Errorf("calls %q", systemctl.calls)
	}
	if !testenv.ProcessAlive(daemon.Process.Pid) {
		t.Error("the running daemon was stopped")
	}
}
