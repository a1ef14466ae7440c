package proc

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"golang.org/x/sys/windows"
)

// The test binary plays the programs Run starts, chosen by helperEnv.
const (
	helperEnv     = "PROC_TEST_HELPER"
	pidFileEnv    = "PROC_TEST_PID_FILE"
	helperOutput  = "helper-out"
	helperErrors  = "helper-err"
	helperExit    = 7
	helperForever = time.Hour
)

// TestHelperProcess is run as a child by the tests below.
func TestHelperProcess(t *testing.T) {
	switch os.Getenv(helperEnv) {
	case "exit":
		fmt.Fprint(os.Stdout, helperOutput)
		fmt.Fprint(os.Stderr, helperErrors)
		os.Exit(helperExit)
	case "tree":
		child := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
		child.Env = append(os.Environ(), helperEnv+"=sleep")
		if err := child.Start(); err != nil {
			os.Exit(1)
		}
		os.WriteFile(os.Getenv(pidFileEnv), []byte(strconv.Itoa(child.Process.Pid)), 0o644)
		time.Sleep(helperForever)
	case "sleep":
		time.Sleep(helperForever)
	}
}

func helper(role string, env ...string) Spec {
	return Spec{
		Path:  os.Args[0],
		Args:  []string{"-test.run=^TestHelperProcess$"},
		Env:   append(append(os.Environ(), helperEnv+"="+role), env...),
		Grace: time.Second,
		Drain: time.Second,
	}
}

func TestRunCapturesBothStreamsAndExitCodeOnWindows(t *testing.T) {
	var out, errOut bytes.Buffer
	spec := helper("exit")
	spec.Stdout, spec.Stderr = &out, &errOut
	res, err := Run(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != helperExit || res.Stopped || out.String() != helperOutput || errOut.String() != helperErrors {
		t.Fatalf("got %+v, stdout %q, stderr %q", res, out.String(), errOut.String())
	}
}

// Ending the run ends the job: the grandchild dies with the child.
func TestCancelKillsTheJobsTree(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "grandchild.pid")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for ctx.Err() == nil {
			if data, _ := os.ReadFile(pidFile); len(data) > 0 {
				cancel()
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	deadline, stop := context.WithTimeout(ctx, time.Minute)
	defer stop()
	res, err := Run(deadline, helper("tree", pidFileEnv+"="+pidFile))
	if err != nil {
		t.Fatal(err)
	}
	if !res.Stopped || res.Cause != context.Canceled {
		t.Fatalf("got %+v, want a run stopped by the cancel", res)
	}
	data, _ := os.ReadFile(pidFile)
	pid, err := strconv.Atoi(string(data))
	if err != nil {
		t.Fatalf("grandchild pid %q: %v", data, err)
	}
	h, err := windows.OpenProcess(windows.SYNCHRONIZE, false, uint32(pid))
	if err != nil {
		return // gone already
	}
	defer windows.CloseHandle(h)
	if event, _ := windows.WaitForSingleObject(h, 10_000); event != windows.WAIT_OBJECT_0 {
		windows.TerminateProcess(h, 1)
		t.Fatalf("the grandchild (pid %d) outlived the run", pid)
	}
}
