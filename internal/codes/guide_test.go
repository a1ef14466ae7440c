package codes

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/names"
)

// jamfShortTableHeader heads the Jamf guide's exit codes in short.
const jamfShortTableHeader = "| exit | meaning | first thing to do |"

// exitList is a row's first cell: exits and ranges, comma-separated.
var exitList = regexp.MustCompile(`^(\d+)(?:–(\d+))?$`)

// TestJamfShortTableKeepsClassesApart: each row of the Jamf guide's
// short table holds codes of one class, and together the rows name every
// code once, so a transient code is never lumped with terminal ones.
func TestJamfShortTableKeepsClassesApart(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "jamf.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(data), "\n"+jamfShortTableHeader+"\n|---|---|---|\n")
	if !ok {
		t.Fatalf("jamf.md has no table headed %q", jamfShortTableHeader)
	}
	named := map[string]int{}
	for _, row := range strings.Split(table, "\n") {
		if !strings.HasPrefix(row, "| ") {
			break
		}
		cell := strings.SplitN(strings.TrimPrefix(row, "| "), " | ", 2)[0]
		classes := map[Class]bool{}
		for _, c := range codesIn(t, cell) {
			named[c.Name]++
			classes[ClassOf(c)] = true
		}
		if len(classes) > 1 {
			t.Errorf("jamf.md row %q mixes transient and terminal codes", cell)
		}
	}
	for _, c := range Table {
		if named[c.Name] != 1 {
			t.Errorf("jamf.md's short table names %s (exit %d) %d times, want once", c.Name, c.Exit, named[c.Name])
		}
	}
}

// codesIn lists the codes of the table that a cell's exits and ranges
// name; 0 is success.
func codesIn(t *testing.T, cell string) []Code {
	var out []Code
	for _, part := range strings.Split(cell, ", ") {
		m := exitList.FindStringSubmatch(part)
		if m == nil {
			t.Fatalf("jamf.md: %q is not an exit or a range", part)
		}
		low, _ := strconv.Atoi(m[1])
		high := low
		if m[2] != "" {
			high, _ = strconv.Atoi(m[2])
		}
		for _, c := range Table {
			if c.Exit >= low && c.Exit <= high {
				out = append(out, c)
			}
		}
	}
	return out
}

// TestSupportDocNeverPutsTheTokenOnACommandLine: the support doc's steps
// never run ctrld with the token, which would show it to every local
// user and provision for real.
func TestSupportDocNeverPutsTheTokenOnACommandLine(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", supportDoc))
	if err != nil {
		t.Fatal(err)
	}
	for i, block := range strings.Split(string(data), "```") {
		if i%2 == 1 && strings.Contains(block, "--cd-org") {
			t.Errorf("a step runs ctrld with the token:\n%s", block)
		}
	}
}

// TestJamfGuideRunsTheInstalledWrapper: a command the Jamf guide has an
// admin run as root names the wrapper where the package puts it, which
// is not on root's PATH.
func TestJamfGuideRunsTheInstalledWrapper(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "jamf.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "sudo "+names.Wrapper); n > 0 {
		t.Errorf("jamf.md runs %q %d times without its path, %s", "sudo "+names.Wrapper, n, names.MacBinDir)
	}
}
