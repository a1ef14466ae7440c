//go:build unix

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/testenv"
)

// benchEnv runs the fake ctrld with a scenario given by environment.
func benchEnv(b *testing.B, extra ...string) ([]string, string) {
	work := b.TempDir()
	env := append(os.Environ(),
		"CTRLD_PROVISION_TOKEN="+testenv.Canary,
		"FAKE_CTRLD_SCENARIO="+filepath.Join(work, "none"),
		"FAKE_CTRLD_HOME="+filepath.Join(work, "home"),
		"CTRLD_INSTALL_SYSLOG_SOCKET="+filepath.Join(work, "no-syslog"))
	return append(env, extra...), work
}

func wrapperArgs(work string, extra ...string) []string {
	return append([]string{"start", "--ctrld", filepath.Join(binDir, "ctrld"), "--home", filepath.Join(work, "home"),
		"--service-file", filepath.Join(work, "none.service"), "--settings", filepath.Join(work, "none")}, extra...)
}

func run(b *testing.B, env []string, name string, args ...string) *os.ProcessState {
	cmd := exec.Command(name, args...)
	cmd.Env = env
	if err := cmd.Run(); err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			b.Fatal(err)
		}
	}
	return cmd.ProcessState
}

// BenchmarkCtrldDirect is the baseline: the fake ctrld's start and status,
// run straight, as the old shell postinstall did.
func BenchmarkCtrldDirect(b *testing.B) {
	env, _ := benchEnv(b)
	ctrld := filepath.Join(binDir, "ctrld")
	for b.Loop() {
		run(b, env, ctrld, "start", "--cd-org="+testenv.Canary)
		run(b, env, ctrld, "status")
	}
}

// BenchmarkWrapperStart is ctrld-install start around the same fake ctrld
// (start, then the status gate). The difference to BenchmarkCtrldDirect
// is the wrapper's overhead.
func BenchmarkWrapperStart(b *testing.B) {
	env, work := benchEnv(b)
	for b.Loop() {
		run(b, env, filepath.Join(binDir, "ctrld-install"), wrapperArgs(work)...)
	}
}

// BenchmarkWrapperHugeOutput pushes 1 GiB of output without newlines
// through the wrapper and reports throughput and the wrapper's peak RSS.
func BenchmarkWrapperHugeOutput(b *testing.B) {
	const size = 1 << 30
	env, work := benchEnv(b, "FAKE_CTRLD_START_FLOOD=1073741824", "FAKE_CTRLD_START_EXIT=1")
	var peak int64
	var spent time.Duration
	for b.Loop() {
		start := time.Now()
		st := run(b, env, filepath.Join(binDir, "ctrld-install"), wrapperArgs(work)...)
		spent += time.Since(start)
		peak = max(peak, st.SysUsage().(*syscall.Rusage).Maxrss)
	}
	b.SetBytes(size)
	b.ReportMetric(float64(peak)/1024, "peak-RSS-MiB")
}
