package msiexec

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/codes"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/record"
)

// fakeMsiexec records its arguments, optionally writes a last result as the
// custom action would, and exits with code.
// It runs on the test's goroutine, inside Do, so it may stop the test.
func fakeMsiexec(t *testing.T, dir string, code int, write *codes.Outcome, seen *[]string) Runner {
	return func(_ context.Context, args []string) (int, error) {
		*seen = args
		if write != nil {
			if err := record.SaveLast(dir, *write); err != nil {
				t.Fatal(err)
			}
		}
		return code, nil
	}
}

func TestExitCodes(t *testing.T) {
	listener := codes.Failure(codes.ListenerBindFailed)
	complete := codes.Success
	for _, tc := range []struct {
		name    string
		msiexec int
		write   *codes.Outcome
		stale   bool
		want    int
	}{
		{"success", 0, &complete, false, 0},
		{"reboot required", 3010, &complete, false, 3010},
		{"reboot started", 1641, &complete, false, 1641},
		{"another install running", 1618, nil, false, 1618},
		{"custom action failed", 1603, &listener, false, 41},
		{"wine reports 1627", 1627, &listener, false, 41},
		{"failed before the action ran", 1603, nil, false, 1603},
		{"only a stale record", 1603, nil, true, 1603},
		{"odd failure code", 1620, nil, false, 1603},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if tc.stale {
				if err := record.SaveLast(dir, listener); err != nil {
					t.Fatal(err)
				}
				old := time.Now().Add(-time.Hour)
				os.Chtimes(filepath.Join(dir, record.LastFileName), old, old)
			}
			var seen []string
			in := Install{MSI: `C:\x\ctrld.msi`, Properties: []string{"PROVISION_TOKEN=t"}, RecordDir: dir, LogDir: t.TempDir(),
				Run: fakeMsiexec(t, dir, tc.msiexec, tc.write, &seen), Now: time.Now}
			got, outcome, fresh := in.Do(context.Background())
			if got != tc.want {
				t.Fatalf("exit %d, want %d", got, tc.want)
			}
			// Only this attempt's record counts, and it is read back as
			// the action wrote it.
			if fresh != (tc.write != nil) || (fresh && outcome != *tc.write) {
				t.Fatalf("outcome %q, fresh %v; the action wrote %v", outcome.Line(), fresh, tc.write)
			}
			if strings.Join(seen[:4], " ") != `/i C:\x\ctrld.msi /qn /norestart` || seen[len(seen)-1] != "PROVISION_TOKEN=t" {
				t.Fatalf("msiexec args %q", seen)
			}
		})
	}
}

func TestRunnerFailure(t *testing.T) {
	in := Install{MSI: "x.msi", RecordDir: t.TempDir(), LogDir: t.TempDir(), Now: time.Now,
		Run: func(context.Context, []string) (int, error) { return 0, errors.New("no msiexec") }}
	if got, _, _ := in.Do(context.Background()); got != Failure {
		t.Fatalf("got %d", got)
	}
}

func TestValidProperty(t *testing.T) {
	for p, want := range map[string]bool{
		"PROVISION_TOKEN=abc": true, "CUSTOM_HOSTNAME=": true, "lower=1": false, "NOEQUALS": false, "=x": false,
		"_A.B9=x=y": true, "9LIVES=1": false, "A-B=1": false, "AB c=1": false,
		strings.Repeat("A", 72) + "=x": true, strings.Repeat("A", 73) + "=x": false,
	} {
		if ValidProperty(p) != want {
			t.Errorf("ValidProperty(%q) != %v", p, want)
		}
	}
}
