package release

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ctrld-install/ctrld-install/internal/names"
)

// LineEnv names the ctrld line a release packages, by its binary's name
// (names.CtrldLines). With ctrld inputs it is optional, and checked
// against the name the inputs give the binary; with none it picks the
// name the demo ctrld is built under, and so which line it plays.
const LineEnv = "CTRLD_LINE"

// checkLine refuses a line no release ships.
func (c Config) checkLine() error {
	if c.Line == "" || slices.Contains(names.CtrldNames, c.Line) {
		return nil
	}
	return fmt.Errorf("release: %s=%q: the lines are %s", LineEnv, c.Line, strings.Join(names.CtrldNames, ", "))
}

// demoLine is the binary name the demo ctrld is built under.
func (c Config) demoLine() string {
	if c.Line != "" {
		return c.Line
	}
	return names.Ctrld
}

// lineNames are the binary names to look for in the inputs: the line
// asked for, else any.
func (c Config) lineNames() []string {
	if c.Line != "" {
		return []string{c.Line}
	}
	return names.CtrldNames
}

// settleLine sets c.Line from the staged binaries: every platform must
// carry the same line, and the one Line asked for if it asked.
func (c *Config) settleLine(platforms []Platform, staged []string) error {
	found := map[string][]string{}
	var names []string
	for i, path := range staged {
		name := strings.TrimSuffix(filepath.Base(path), ".exe")
		if _, ok := found[name]; !ok {
			names = append(names, name)
		}
		found[name] = append(found[name], platforms[i].String())
	}
	if len(names) > 1 {
		var each []string
		for _, n := range names {
			each = append(each, n+" for "+strings.Join(found[n], " "))
		}
		return fmt.Errorf("the ctrld inputs mix lines (%s): a release packages one line", strings.Join(each, "; "))
	}
	if len(names) == 0 {
		return nil
	}
	if c.Line != "" && c.Line != names[0] {
		return fmt.Errorf("%s=%s, but the ctrld inputs are %s", LineEnv, c.Line, names[0])
	}
	c.Line = names[0]
	return nil
}
