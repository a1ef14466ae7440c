//go:build linux

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// stalledPolicyEnv is the test main's seam for a settings read that
// never ends: reading the OS policy creates the file it names, then
// blocks.
const stalledPolicyEnv = "CTRLD_INSTALL_TEST_STALLED_POLICY"

const interruptedLine = "provisioning failed: stage=package code=WRAPPER_INTERRUPTED (exit 68)\n"

// A stop signal while the settings are read ends start, configured and
// explain at once with WRAPPER_INTERRUPTED: the read is not waited for.
// Only start prints the line; the other two print nothing.
func TestSignalDuringSettingsReadIsInterrupted(t *testing.T) {
	work := newWork(t)
	log, err := listenSyslog()
	if err != nil {
		t.Fatal(err)
	}
	defer log.close()
	where := []string{"--ctrld", filepath.Join(binDir, "ctrld"), "--home", filepath.Join(work, "home")}
	start := append(where, "--service-file", filepath.Join(work, "svc", "ctrld.service"),
		"--settings", filepath.Join(work, "none"), "--prefs", filepath.Join(work, "none.plist"), "--prefs-wait", "0")
	env := []string{"PATH=" + os.Getenv("PATH"), names.TokenEnv + "=" + testenv.Canary, syslogSocketEnv + "=" + log.path}
	// explain reads the settings only to explain a failure: record one.
	record := exec.Command(filepath.Join(binDir, "ctrld-install"), append([]string{"start"}, start...)...)
	record.Env = []string{"PATH=" + os.Getenv("PATH"), syslogSocketEnv + "=" + log.path}
	if exit, _ := testenv.ExitCode(record.Run()); exit != 61 {
		t.Fatalf("the failure to explain was not recorded: exit %d", exit)
	}
	for _, tc := range []struct {
		args   []string
		stdout string
	}{
		{append([]string{"start"}, start...), interruptedLine},
		{append([]string{"configured"}, start...), ""},
		{append([]string{"explain"}, where...), ""},
	} {
		t.Run(tc.args[0], func(t *testing.T) {
			began := filepath.Join(t.TempDir(), "reading")
			cmd := exec.Command(filepath.Join(binDir, "ctrld-install"), tc.args...)
			cmd.Env = append(env, stalledPolicyEnv+"="+began)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			waitForFile(t, began)
			cmd.Process.Signal(syscall.SIGTERM)
			exit := waitExit(t, cmd)
			if exit != 68 || stdout.String() != tc.stdout || stderr.Len() != 0 {
				t.Fatalf("exit %d, stdout %q, stderr %q", exit, stdout.String(), stderr.String())
			}
			if found := testenv.FilesWithCanary(work); len(found) > 0 || strings.Contains(log.text(), testenv.Canary) {
				t.Fatalf("canary leaked: %v", found)
			}
		})
	}
}

// waitForFile waits, up to the hang guard, for the wrapper to say the
// read began.
func waitForFile(t *testing.T, path string) {
	t.Helper()
	for deadline := time.Now().Add(hangGuard); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(path); err == nil {
			return
		}
	}
	t.Fatal("the settings read never began")
}

// waitExit returns the exit code, or -1 when the wrapper died of a
// signal. A wrapper still running after the hang guard fails the test.
func waitExit(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		exit, err := testenv.ExitCode(err)
		if err != nil {
			t.Fatal(err)
		}
		return exit
	case <-time.After(hangGuard):
		t.Fatalf("still reading %v after the signal", hangGuard)
		return 0
	}
}
