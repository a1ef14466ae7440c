package provision

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/codes"
	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/internal/settings"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/leftover"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/platform"
)

// upgradedFake is the fake ctrld whose restart hangs, upgraded while its
// old daemon runs: the old daemon runs the replaced binary, as after dpkg
// unpacked a new one over it.
type upgradedFake struct {
	ctrld string
	old   *exec.Cmd
}

func newUpgradedFake(t *testing.T, restart, statusExit string) upgradedFake {
	t.Helper()
	dir := t.TempDir()
	ctrld := testenv.GoBuild(t, dir, names.Ctrld, "./testdata/fakectrld")
	scenario := restart + "\nstatus.exit=" + statusExit + "\n"
	if err := os.WriteFile(filepath.Join(dir, "fake-ctrld.scenario"), []byte(scenario), 0o644); err != nil {
		t.Fatal(err)
	}
	old := daemonOf(t, ctrld)
	data, _ := os.ReadFile(ctrld)
	if err := os.WriteFile(ctrld+".new", data, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(ctrld+".new", ctrld); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { leftover.StopDaemons("/proc", ctrld, 0) })
	return upgradedFake{ctrld: ctrld, old: old}
}

// daemonOf starts a daemon of the binary at ctrld in a session of its
// own, as an init system would.
func daemonOf(t *testing.T, ctrld string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(ctrld, "__sleep")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go cmd.Wait()
	return cmd
}

// initSystem plays systemctl and the sysv script: a start runs a daemon
// of the binary now at the path, a stop only queues (the old daemon's own
// stop hangs).
type initSystem struct {
	t     *testing.T
	ctrld string
	mu    sync.Mutex
	calls []string
}

func (s *initSystem) run(ctx context.Context, env []string, name string, args ...string) error {
	if name == s.ctrld {
		return platform.ExecRunner(ctx, env, name, args...)
	}
	s.mu.Lock()
	s.calls = append(s.calls, filepath.Base(name)+" "+strings.Join(args, " "))
	s.mu.Unlock()
	if args[len(args)-1] == "start" || len(args) > 1 && args[1] == "start" {
		daemonOf(s.t, s.ctrld)
	}
	return nil
}

// With ctrld's restart hanging (its stop caught in a retry loop), or
// exiting 0 without restarting, and the old daemon still on the replaced
// binary, the reload stops the daemon
// through the init system, starts the service on the new binary, and the
// success gate decides: on systemd and on sysv, whichever the gate says.
func TestReloadReplacesADaemonWhoseRestartHangs(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the fake ctrld")
	}
	const hangs, exits0 = "restart.sleep=1h", "restart.exit=0"
	for _, tc := range []struct {
		initSys, restart, status string
		exit                     int
		calls                    string
	}{
		{"systemd", hangs, "0", 0, "systemctl --no-block stop ctrld.service;systemctl --no-block start ctrld.service"},
		{"systemd", hangs, "1", codes.SuccessGateFailed.Exit, "systemctl --no-block stop ctrld.service;systemctl --no-block start ctrld.service"},
		{"sysv", hangs, "0", 0, "ctrld stop;ctrld start"},
		// ctrld's restart exits 0 without restarting anything.
		{"sysv", exits0, "0", 0, "ctrld stop;ctrld start"},
	} {
		t.Run(tc.initSys+"-"+tc.restart+"-status-"+tc.status, func(t *testing.T) {
			l, _, files := systemdRoots(t, names.Ctrld)
			l.Paths.Proc = "/proc"
			if tc.initSys == "sysv" {
				os.RemoveAll(filepath.Join(l.Paths.RunDir, "systemd"))
				script := filepath.Join(l.Paths.Etc, "init.d", names.Ctrld)
				os.MkdirAll(filepath.Dir(script), 0o755)
				os.WriteFile(script, []byte("#!/bin/sh\n"), 0o755)
				files = []string{script}
			}
			ln, err := net.Listen("unix", filepath.Join(l.Paths.RunDir, names.CtrldControlSocket(names.Ctrld)))
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			fake := newUpgradedFake(t, tc.restart, tc.status)
			init := &initSystem{t: t, ctrld: fake.ctrld}
			l.Run = init.run
			p, _ := newProvisioner(t, fake.ctrld, l, files[:1], settings.Settings{})
			p.Config.Timeout = time.Second
			o := p.Run(context.Background())
			if o.Exit() != tc.exit {
				t.Errorf("got %q, want exit %d from the gate", o.Line(), tc.exit)
			}
			if !leftover.RunningFile("/proc", fake.ctrld) {
				t.Error("no daemon runs the new binary")
			}
			if testenv.ProcessAlive(fake.old.Process.Pid) {
				t.Error("the old daemon still runs")
			}
			if got := strings.Join(init.calls, ";"); got != tc.calls {
				t.Errorf("init system calls %q, want %q", got, tc.calls)
			}
		})
	}
}
