package cli

import (
	"regexp"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

func run(args ...string) (exit int, stdout, stderr string) {
	var out, errOut strings.Builder
	exit = Run(System{}, args, &out, &errOut)
	return exit, out.String(), errOut.String()
}

// flagLine is a flag's line in a command's help.
var flagLine = regexp.MustCompile(`^  (-+)([a-z-]+)( \S+)?$`)

// Every command's -h says its usage line, its one-line description and
// its flags as the docs spell them, each default once.
func TestEveryCommandHasHelp(t *testing.T) {
	for _, c := range commandTable() {
		exit, out, errOut := run(c.name, "-h")
		if exit != exitOK || errOut != "" {
			t.Errorf("%s -h: exit %d, stderr %q", c.name, exit, errOut)
		}
		lines := strings.Split(out, "\n")
		if !strings.HasPrefix(lines[0], "usage: ctrld-install "+c.name) || !strings.HasSuffix(lines[0], c.args) {
			t.Errorf("%s -h: usage line %q", c.name, lines[0])
		}
		if !strings.Contains(strings.Join(strings.Fields(out), " "), upperFirst(c.summary)+".") {
			t.Errorf("%s -h: no description in\n%s", c.name, out)
		}
		for i, l := range lines {
			m := flagLine.FindStringSubmatch(l)
			if m == nil {
				continue
			}
			if want := flagSpelling(m[2]); m[1]+m[2] != want {
				t.Errorf("%s -h: flag written %s%s, want %s", c.name, m[1], m[2], want)
			}
			if m[3] == " value" || m[3] == " string" {
				t.Errorf("%s -h: --%s takes %q: name what it takes", c.name, m[2], m[3])
			}
			if n := strings.Count(flagText(lines[i+1:]), "(default"); n > 1 {
				t.Errorf("%s -h: --%s states %d defaults", c.name, m[2], n)
			}
		}
	}
}

// flagText is a flag's help: the indented lines under its name.
func flagText(lines []string) string {
	var b strings.Builder
	for _, l := range lines {
		if !strings.HasPrefix(l, "      ") {
			break
		}
		b.WriteString(l)
	}
	return b.String()
}

// The top-level usage lists the command table, one aligned line each.
func TestUsageIsTheCommandTable(t *testing.T) {
	_, out, _ := run("-h")
	column := -1
	for _, c := range commandTable() {
		re := regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(c.name) + `( +)` + regexp.QuoteMeta(c.summary) + `$`)
		m := re.FindStringSubmatch(out)
		if m == nil {
			t.Errorf("no line for %s in\n%s", c.name, out)
			continue
		}
		at := len(c.name) + len(m[1])
		if column >= 0 && at != column {
			t.Errorf("%s's description starts at %d, the others' at %d", c.name, at, column)
		}
		column = at
	}
}

// An unknown flag is answered with the nearest of the command's own
// names, and what was typed never comes back.
func TestUnknownFlagSuggestsOurName(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"start", "--token-flie", "/root/token"}, "did you mean --token-file?"},
		{[]string{"start", "--timout=5m"}, "did you mean --timeout?"},
		{[]string{"preflight", "--jsn"}, "did you mean --json?"},
		{[]string{"report", "--colum", "X"}, "did you mean --column?"},
		{[]string{"explian"}, "did you mean explain?"},
	} {
		exit, out, errOut := run(tc.args...)
		if exit != exitUsage || out != "" || !strings.Contains(errOut, tc.want) {
			t.Errorf("%q: exit %d, stderr %q, want %q", tc.args, exit, errOut, tc.want)
		}
	}
	for _, args := range [][]string{{"start", "--" + testenv.Canary}, {"start", "--t" + testenv.Canary[1:]}, {testenv.Canary}} {
		_, _, errOut := run(args...)
		if strings.Contains(errOut, testenv.Canary) || strings.Contains(errOut, "did you mean") {
			t.Errorf("%q: stderr %q", args, errOut)
		}
	}
}

// Each command takes exactly what it uses: no stray argument, no flag it
// ignores, no bound of zero.
func TestCommandsTakeOnlyWhatTheyUse(t *testing.T) {
	for _, args := range [][]string{
		{"version", "extra"},
		{"codes", "extra"},
		{"last", "extra"},
		{"explain", "extra"},
		{"preflight", "extra"},
		{"preflight", "--gate-timeout", "30s"},
		{"preflight", "--timeout", "0s"},
		{"configured", "--timeout", "5m"},
		{"start", "--timeout", "0"},
		{"start", "--gate-timeout", "0s"},
	} {
		if exit, out, errOut := run(args...); exit != exitUsage || out != "" || errOut == "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q: want a usage error", args, exit, out, errOut)
		}
	}
}
