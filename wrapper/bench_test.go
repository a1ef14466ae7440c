//go:build linux

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// benchEnv runs the fake ctrld with a scenario given by environment.
func benchEnv(b *testing.B, extra ...string) ([]string, string) {
	work := b.TempDir()
	env := append(os.Environ(),
		names.TokenEnv+"="+testenv.Canary,
		"FAKE_CTRLD_SCENARIO="+filepath.Join(work, "none"),
		"FAKE_CTRLD_HOME="+filepath.Join(work, "home"))
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

// emptyProgram builds `func main() {}` with the release's flags: the
// floor every Go program pays to start.
func emptyProgram(b *testing.B) string {
	dir := b.TempDir()
	src := filepath.Join(dir, "main.go")
	if err := os.WriteFile(src, []byte("package main\n\nfunc main() {}\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	return buildReference(b, dir, src, filepath.Join(dir, "empty"))
}

// minimalWrapper builds testdata/minwrapper, the least a Go wrapper can
// do on the success path: the floor for ctrld-install start.
func minimalWrapper(b *testing.B) string {
	src, err := filepath.Abs(filepath.Join("testdata", "minwrapper", "main.go"))
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	return buildReference(b, dir, src, filepath.Join(dir, "minwrapper"))
}

func buildReference(b *testing.B, dir, src, out string) string {
	cmd := exec.Command("go", append(append([]string{"build"}, releaseFlags...), "-o", out, src)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GO111MODULE=off")
	if msg, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("%v\n%s", err, msg)
	}
	return out
}

// startupRounds is how many times each program runs per iteration; the
// medians of the rounds are what is reported.
const startupRounds = 15

// BenchmarkStartup measures, interleaved in one run so that the machine's
// load hits every program alike: an empty Go program (the floor), the
// fake ctrld's start and status run directly (what the old shell
// postinstall did), `ctrld-install start` around the same fake ctrld,
// `ctrld-install codes` (the wrapper's own start-up), and the minimal Go
// wrapper around the same fake ctrld. It reports start-overhead-x, what
// start adds over ctrld direct in units of the floor; codes-x, codes over
// the floor; and minimal-overhead-x, what the minimal wrapper adds, which
// no Go wrapper can beat.
func BenchmarkStartup(b *testing.B) {
	env, work := benchEnv(b)
	ctrld, wrapper, empty := filepath.Join(binDir, "ctrld"), filepath.Join(binDir, "ctrld-install-release"), emptyProgram(b)
	minimal := minimalWrapper(b)
	programs := []func(){
		func() { run(b, env, empty) },
		func() {
			run(b, env, ctrld, "start", "--cd-org="+testenv.Canary)
			run(b, env, ctrld, "status")
		},
		func() { run(b, env, wrapper, wrapperArgs(work)...) },
		func() { run(b, env, wrapper, "codes") },
		func() { run(b, env, minimal, ctrld) },
	}
	took := make([][]time.Duration, len(programs))
	for b.Loop() {
		for round := range startupRounds {
			for i := range programs {
				// Rotate the order so no program always runs first.
				p := (i + round) % len(programs)
				start := time.Now()
				programs[p]()
				took[p] = append(took[p], time.Since(start))
			}
		}
	}
	floor, direct, start, codes, least := median(took[0]), median(took[1]), median(took[2]), median(took[3]), median(took[4])
	b.ReportMetric(ms(floor), "floor-ms")
	b.ReportMetric(ms(direct), "direct-ms")
	b.ReportMetric(ms(start), "start-ms")
	b.ReportMetric(ms(codes), "codes-ms")
	b.ReportMetric(float64(start-direct)/float64(floor), "start-overhead-x")
	b.ReportMetric(float64(codes)/float64(floor), "codes-x")
	b.ReportMetric(ms(least), "minimal-ms")
	b.ReportMetric(float64(least-direct)/float64(floor), "minimal-overhead-x")
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// BenchmarkWrapperHugeOutput pushes 1 GiB of output without newlines
// through the wrapper and reports throughput and the wrapper's peak RSS.
func BenchmarkWrapperHugeOutput(b *testing.B) {
	const size = 1 << 30
	env, work := benchEnv(b, "FAKE_CTRLD_START_FLOOD=1073741824", "FAKE_CTRLD_START_EXIT=1")
	var peak int64
	for b.Loop() {
		st := run(b, env, filepath.Join(binDir, "ctrld-install-release"), wrapperArgs(work)...)
		peak = max(peak, st.SysUsage().(*syscall.Rusage).Maxrss)
	}
	b.SetBytes(size)
	b.ReportMetric(float64(peak)/1024, "peak-RSS-MiB")
}
