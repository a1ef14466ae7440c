package cli

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// The support doc's list of other exit codes says what the command
// line's own exits mean: 1 for each command that answers it, 2 a usage
// error.
func TestSupportDocListsTheCommandLineExits(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(testenv.RepoRoot(), "docs", "provisioning-failure-codes.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(data), "\n## Other exit codes you may see\n")
	if !ok {
		t.Fatal("the support doc has no list of other exit codes")
	}
	rows := map[int]string{}
	for _, line := range strings.Split(section, "\n") {
		cells := strings.SplitN(strings.TrimPrefix(line, "| "), " | ", 2)
		if n, err := strconv.Atoi(cells[0]); err == nil && len(cells) == 2 {
			rows[n] = cells[1]
		}
	}
	for _, want := range []struct {
		exit  int
		words []string
	}{
		{exitNone, []string{"last`", "`explain`", "`configured`"}},
		{exitFailed, []string{"`report`"}},
		{exitUsage, []string{"usage error", "-h"}},
	} {
		for _, w := range want.words {
			if !strings.Contains(rows[want.exit], w) {
				t.Errorf("exit %d: the doc's row %q does not mention %s", want.exit, rows[want.exit], w)
			}
		}
	}
	if strings.Contains(rows[exitUsage], "packaging bug;") {
		t.Errorf("exit %d is a usage error, not only a packaging bug: %q", exitUsage, rows[exitUsage])
	}
}
