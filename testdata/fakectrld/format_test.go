package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// parsed is one line of a real ctrld's output, taken apart.
type parsed struct{ stamp, level, msg, errValue string }

var (
	v1Line  = regexp.MustCompile(`^\x1b\[90m(.{19})\x1b\[0m \x1b\[\d+m([A-Z]{3})\x1b\[0m (?:\x1b\[1m(.*?)\x1b\[0m|([^\x1b]*))(?: \x1b\[36merror=\x1b\[0m\x1b\[31m\x1b\[1m(".*")\x1b\[0m\x1b\[0m)?$`)
	v2Line  = regexp.MustCompile(`^(.{19})\t\x1b\[\d+m([A-Z]+)\x1b\[0m\t([^\t]*)(?:\t\{"error": (".*")\})?$`)
	v1Names = map[string]string{}
)

func init() {
	for abbrev, name := range v2Levels {
		v1Names[name] = abbrev
	}
}

func parse(t *testing.T, format, line string) parsed {
	t.Helper()
	var p parsed
	if format == formatV2 {
		m := v2Line.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("not a v2 line: %q", line)
		}
		p = parsed{m[1], v1Names[m[2]], m[3], m[4]}
	} else {
		m := v1Line.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("not a v1 line: %q", line)
		}
		p = parsed{m[1], m[2], m[3] + m[4], m[5]}
	}
	if p.errValue != "" {
		v, err := strconv.Unquote(p.errValue)
		if err != nil {
			t.Fatalf("error field %s: %v", p.errValue, err)
		}
		p.errValue = v
	}
	return p
}

// The fake prints every line the real ctrld printed (the fixtures from
// the namespace tier) byte for byte, in both versions' formats: the
// levels, colours, separators and error fields.
func TestFakeFollowsTheRealOutputFormats(t *testing.T) {
	for _, l := range realLines {
		dir, format := l.dir, l.format
		files, _ := filepath.Glob(filepath.Join(testenv.Fixture(t, "ctrld-output/"+dir), "*.txt"))
		if len(files) == 0 {
			t.Fatalf("no fixtures in %s", dir)
		}
		for _, f := range files {
			if cliFixtures[filepath.Base(f)] {
				continue
			}
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
				p := parse(t, format, line)
				at, err := time.Parse(stampLayout, p.stamp)
				if err != nil {
					t.Fatalf("%s: stamp %q: %v", f, p.stamp, err)
				}
				if got := formatLine(format, p.level, p.msg, p.errValue, at); got != line {
					t.Errorf("%s/%s:\nfake %q\nreal %q", dir, filepath.Base(f), got, line)
				}
			}
		}
	}
}
