//go:build unix

package msiexec

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// msiexec finds its verbose log already there, new, empty and private,
// whatever held the name before: an old log readable by others, or a
// link that would have sent the log elsewhere.
func TestTheLogIsCreatedPrivateBeforeMsiexecRuns(t *testing.T) {
	for name, plant := range map[string]func(log, elsewhere string){
		"an old log": func(log, _ string) { os.WriteFile(log, []byte(testenv.Canary), 0o644) },
		"a link":     func(log, elsewhere string) { os.Symlink(elsewhere, log) },
		"nothing":    func(string, string) {},
	} {
		t.Run(name, func(t *testing.T) {
			logDir, elsewhere := t.TempDir(), filepath.Join(t.TempDir(), "elsewhere")
			os.WriteFile(elsewhere, []byte("untouched"), 0o644)
			log := filepath.Join(logDir, LogFileName)
			plant(log, elsewhere)
			checked := false
			in := Install{MSI: "x.msi", RecordDir: t.TempDir(), LogDir: logDir, Now: time.Now,
				Run: func(context.Context, []string) (int, error) {
					info, err := os.Lstat(log)
					if err != nil || !info.Mode().IsRegular() || info.Mode().Perm() != 0o600 || info.Size() != 0 {
						t.Fatalf("the log msiexec finds: %v %v", info, err)
					}
					checked = true
					return Success, nil
				}}
			if code, _, _ := in.Do(context.Background()); code != Success || !checked {
				t.Fatalf("exit %d, msiexec ran: %v", code, checked)
			}
			if data, _ := os.ReadFile(elsewhere); string(data) != "untouched" {
				t.Fatalf("written through the link: %q", data)
			}
		})
	}
}
