package tiers

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"
)

// The race detector watches the packages whose code runs the wrapper's
// pipes, timers and signals, and the format packages (the cabinet's
// spooling writer and reader among them): every test of theirs runs with
// -race. By rule, not by list:
//
//   - every package under wrapper/ but the CLI itself: its scenarios run
//     separately built binaries, so -race would watch only the harness
//     and distort the scenarios' memory ceilings;
//   - every format package: a package under installers/ that the
//     installer in the folder above imports. The installers themselves
//     only build artifacts, where -race costs many times the time and
//     watches no goroutine of theirs.
const (
	wrapperDir    = "./wrapper"
	installersDir = "./installers"
)

// raced reports whether p's tests run with -race.
func (m module) raced(p pkg) bool {
	if strings.HasPrefix(p.Rel, wrapperDir+"/") {
		return true
	}
	return m.isFormatPackage(p)
}

func (m module) isFormatPackage(p pkg) bool {
	parentRel := "./" + path.Dir(strings.TrimPrefix(p.Rel, "./"))
	if !strings.HasPrefix(parentRel, installersDir+"/") {
		return false
	}
	parent, ok := m.find(parentRel)
	return ok && slices.Contains(parent.Imports, p.ImportPath)
}

// The release's goroutines are its fan-out and its progress writer: those
// tests run with -race. Its other tests build artifacts through them,
// where the race detector costs ten times the time (the compression is
// instrumented too) and watches the same code, so they run without it.
// Each alternative must match a test of the release, so that a rename
// cannot quietly leave a test without the race detector.
const releasePackage = "./internal/release"

var releaseRaceTests = []string{"TestFanOut.*", "TestProgressLinesStayWhole"}

// releaseRacePattern is releaseRaceTests as go test's -run and -skip.
func releaseRacePattern() string { return "^(" + strings.Join(releaseRaceTests, "|") + ")$" }

// checkReleaseRaceTests fails when an alternative matches no test.
func (m module) checkReleaseRaceTests() error {
	p, ok := m.find(releasePackage)
	if !ok {
		return fmt.Errorf("%s is no package of the module", releasePackage)
	}
	var tests []string
	for _, file := range p.TestFiles {
		names, err := testFuncs(file, "Test", "T")
		if err != nil {
			return err
		}
		tests = append(tests, names...)
	}
	for _, alt := range releaseRaceTests {
		re := regexp.MustCompile("^(" + alt + ")$")
		if !slices.ContainsFunc(tests, re.MatchString) {
			return fmt.Errorf("race test pattern %q matches no test of %s", alt, releasePackage)
		}
	}
	return nil
}
