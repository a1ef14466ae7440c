//go:build unix

package proc

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

type safeBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *safeBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *safeBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func sh(script string, out, errOut *safeBuffer) Spec {
	return Spec{Path: "/bin/sh", Args: []string{"-c", script}, Stdout: out, Stderr: errOut,
		Grace: 300 * time.Millisecond, Drain: 500 * time.Millisecond}
}

func alive(pid int) bool { return testenv.ProcessAlive(pid) }

func readPid(t *testing.T, path string) int {
	t.Helper()
	pid, err := waitPid(path)
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

var errNoPid = errors.New("no pid file")

// waitPid waits up to 5s for a pid file. It does not take t: goroutines
// call it, and only the test's own goroutine may stop the test.
func waitPid(path string) (int, error) {
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		data, err := os.ReadFile(path)
		if pid, perr := strconv.Atoi(strings.TrimSpace(string(data))); err == nil && perr == nil {
			return pid, nil
		}
		time.Sleep(10 * time.Millisecond)
	}
	return 0, errNoPid
}

// cancelOncePid cancels ctx with errTimeout once the pid file appears, or
// with errNoPid, which the test then sees as the wrong cause.
func cancelOncePid(cancel context.CancelCauseFunc, path string) {
	if _, err := waitPid(path); err != nil {
		cancel(err)
		return
	}
	cancel(errTimeout)
}

func TestRunCapturesBothStreamsAndExitCode(t *testing.T) {
	var out, errOut safeBuffer
	res, err := Run(context.Background(), sh("echo out; echo err >&2; exit 41", &out, &errOut))
	if err != nil || res.ExitCode != 41 || res.Stopped {
		t.Fatalf("res=%+v err=%v", res, err)
	}
	if out.String() != "out\n" || errOut.String() != "err\n" {
		t.Fatalf("out=%q err=%q", out.String(), errOut.String())
	}
}

func TestRunClosesStdin(t *testing.T) {
	var out, errOut safeBuffer
	res, _ := Run(context.Background(), sh("if read x; then echo got; else echo eof; fi", &out, &errOut))
	if res.ExitCode != 0 || out.String() != "eof\n" {
		t.Fatalf("stdin not closed: %q", out.String())
	}
}

func TestMissingBinary(t *testing.T) {
	var out, errOut safeBuffer
	_, err := Run(context.Background(), Spec{Path: "/nonexistent/ctrld", Stdout: &out, Stderr: &errOut})
	if !errors.Is(err, ErrStart) {
		t.Fatalf("err=%v", err)
	}
	// One line that names the cause, for the OS log.
	if msg := err.Error(); !strings.HasSuffix(msg, "no such file or directory") || strings.Contains(msg, "\n") {
		t.Fatalf("err=%q", msg)
	}
}

var errTimeout = errors.New("timeout")

func TestCancelKillsGrandchildren(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "grandchild")
	var out, errOut safeBuffer
	ctx, cancel := context.WithCancelCause(context.Background())
	go cancelOncePid(cancel, pidFile)
	start := time.Now()
	res, err := Run(ctx, sh("sleep 300 & echo $! > "+pidFile+"; wait", &out, &errOut))
	if err != nil || !res.Stopped || !errors.Is(res.Cause, errTimeout) {
		t.Fatalf("res=%+v err=%v", res, err)
	}
	gc := readPid(t, pidFile)
	time.Sleep(50 * time.Millisecond)
	if alive(gc) {
		syscall.Kill(gc, syscall.SIGKILL)
		t.Fatal("grandchild survived")
	}
	if time.Since(start) > 5*time.Second {
		t.Fatalf("took %v", time.Since(start))
	}
}

func TestHardKillWhenTermIgnored(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "self")
	var out, errOut safeBuffer
	ctx, cancel := context.WithCancelCause(context.Background())
	go cancelOncePid(cancel, pidFile)
	res, _ := Run(ctx, sh("trap '' TERM; echo $$ > "+pidFile+"; while :; do sleep 1; done", &out, &errOut))
	if !res.Stopped || res.ExitCode != -1 {
		t.Fatalf("res=%+v", res)
	}
	if alive(readPid(t, pidFile)) {
		t.Fatal("process survived the hard kill")
	}
}

func TestLeftoverPipeHolderDoesNotBlock(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "holder")
	var out, errOut safeBuffer
	start := time.Now()
	res, err := Run(context.Background(), sh("(sleep 30; echo late) & echo $! > "+pidFile+"; echo done", &out, &errOut))
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("res=%+v err=%v", res, err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("waited %v for a leftover child", d)
	}
	syscall.Kill(readPid(t, pidFile), syscall.SIGKILL)
}

// A stream without a writer goes to the null device: the child finds a
// character device there, not a pipe.
func TestStreamWithoutWriterGoesToNullDevice(t *testing.T) {
	var errOut safeBuffer
	res, err := Run(context.Background(), Spec{Path: "/bin/sh", Args: []string{"-c", "[ -c /dev/stdout ] && [ ! -c /dev/stderr ]"},
		Stderr: &errOut})
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("stdout is not the null device, or stderr is not a pipe: res=%+v err=%v", res, err)
	}
}

// Without writers there is no pipe to drain: a leftover child holding the
// streams does not keep Run waiting, however long Drain allows.
func TestNoDrainWithoutWriters(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "holder")
	done := make(chan Result, 1)
	go func() {
		res, _ := Run(context.Background(), Spec{Path: "/bin/sh", Args: []string{"-c", "sleep 30 & echo $! > " + pidFile},
			Drain: time.Hour})
		done <- res
	}()
	select {
	case res := <-done:
		if res.ExitCode != 0 {
			t.Fatalf("res=%+v", res)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run waited for a leftover child's streams")
	}
	syscall.Kill(readPid(t, pidFile), syscall.SIGKILL)
}

// The exit code of a child a signal ended is -1, as os/exec reports it.
func TestSignalledChildExitsMinusOne(t *testing.T) {
	var out, errOut safeBuffer
	res, err := Run(context.Background(), sh("kill -9 $$", &out, &errOut))
	if err != nil || res.ExitCode != -1 || res.Stopped {
		t.Fatalf("res=%+v err=%v", res, err)
	}
}
