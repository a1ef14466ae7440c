package testenv

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Generated holds the committed file name, a path under the repository
// named with slashes, to want, the bytes it is generated from; with
// update it rewrites the file first. regenerate is the command that does,
// for the failure message.
func Generated(t testing.TB, name string, want []byte, update bool, regenerate string) {
	t.Helper()
	path := filepath.Join(RepoRoot(), filepath.FromSlash(name))
	if update {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(got, want) {
		return
	}
	t.Errorf("%s is not what it is generated from (%s):\n%s", name, regenerate, firstDifference(string(got), string(want)))
}

// firstDifference quotes the first line where got and want part.
func firstDifference(got, want string) string {
	gotLines, wantLines := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range max(len(gotLines), len(wantLines)) {
		g, w := lineAt(gotLines, i), lineAt(wantLines, i)
		if g != w {
			return fmt.Sprintf("line %d:\n file %s\n want %s", i+1, g, w)
		}
	}
	return "the same lines"
}

func lineAt(lines []string, i int) string {
	if i >= len(lines) {
		return "(end of file)"
	}
	return strconv.Quote(lines[i])
}
