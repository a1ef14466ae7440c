package tiers

import (
	"fmt"
	"runtime"
	"slices"
	"strconv"
)

// slowestPackages start first, so that the Wine tier and the release
// builds, the longest test binaries, never start last. The order is all
// this list decides: every package runs whether it is named or not, and
// a name no package has fails the run.
var slowestPackages = []string{"./installers/windows", releasePackage}

// testTimeout bounds one go test run.
const testTimeout = "30m"

// testBinariesAtOnce is go test's -p: many tests wait on timers, ctrld's
// stand-ins and Wine more than they compute, so more test binaries run at
// once than there are cores, the default.
func testBinariesAtOnce() string { return strconv.Itoa(runtime.NumCPU() + 2) }

// unitAndScenarios runs every package's tests but the real-ctrld tier's.
func unitAndScenarios() error {
	mod, err := listModule()
	if err != nil {
		return err
	}
	cmds, err := mod.unitCommands()
	if err != nil {
		return err
	}
	return runAll(cmds)
}

// unitCommands: the raced packages, the release's race tests, then the
// rest, the slowest first.
func (m module) unitCommands() ([]Command, error) {
	var raced, rest []string
	for _, p := range m.Packages {
		switch {
		case p.Rel == realCtrldPackage || slices.Contains(slowestPackages, p.Rel):
		case m.raced(p):
			raced = append(raced, p.Rel)
		default:
			rest = append(rest, p.Rel)
		}
	}
	if err := m.checkReleaseRaceTests(); err != nil {
		return nil, err
	}
	for _, s := range slowestPackages {
		if _, ok := m.find(s); !ok {
			return nil, fmt.Errorf("slowest package %s is no package of the module", s)
		}
	}
	return []Command{
		goCommand(append([]string{"test", "-p", testBinariesAtOnce(), "-count=1", "-race", "-timeout", testTimeout}, raced...)...),
		goCommand("test", "-count=1", "-race", "-run", releaseRacePattern(), releasePackage),
		// The release's race tests ran above; their names are the release's alone.
		goCommand(append([]string{"test", "-p", testBinariesAtOnce(), "-count=1", "-timeout", testTimeout, "-skip", releaseRacePattern()}, append(slices.Clone(slowestPackages), rest...)...)...),
	}, nil
}
