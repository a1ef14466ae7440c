//go:build unix

package platform

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// The upgrade reload runs through the process-group machinery: when it is
// cut short, ctrld's grandchild goes too, not only its direct child.
func TestReloadCutShortStopsTheGrandchild(t *testing.T) {
	dir := t.TempDir()
	ctrld, pidFile := filepath.Join(dir, "ctrld"), filepath.Join(dir, "grandchild")
	script := "#!/bin/sh\n[ \"$1\" = restart ] || exit 0\nsleep 300 &\necho $! > " + pidFile + "\nwait\n"
	if err := os.WriteFile(ctrld, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	err := Linux{Run: ExecRunner}.Reload(ctx, Service{Ctrld: ctrld})
	if !errors.Is(err, ErrStopped) {
		t.Fatalf("reload: %v", err)
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	time.Sleep(100 * time.Millisecond)
	if testenv.ProcessAlive(pid) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Fatal("the reload's grandchild survived")
	}
}

func TestExecRunnerReportsTheExitCode(t *testing.T) {
	if err := ExecRunner(context.Background(), nil, "/bin/sh", "-c", "exit 3"); err == nil || !strings.Contains(err.Error(), "exited 3") {
		t.Fatalf("err = %v", err)
	}
	if err := ExecRunner(context.Background(), nil, "/bin/sh", "-c", "exit 0"); err != nil {
		t.Fatalf("err = %v", err)
	}
}
