// Package tiers runs the module's test tiers for the magefile: vet for
// every OS the release ships, the unit tests and CLI scenarios (the race
// detector on by a rule), the real-ctrld tier beside them, and every fuzz
// target. What each tier runs is found by listing the module, not kept by
// hand, and Plan prints the commands without running them.
package tiers

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"github.com/magefile/mage/mg"
)

// Command is one go command of a tier.
type Command struct {
	Env  []string // added to the environment, as KEY=value
	Args []string // go's arguments
}

func goCommand(args ...string) Command { return Command{Args: args} }

// String is the command as a shell would take it.
func (c Command) String() string {
	words := append(append([]string{}, c.Env...), "go")
	for _, a := range c.Args {
		if strings.ContainsAny(a, shellSpecial) {
			a = "'" + a + "'"
		}
		words = append(words, a)
	}
	return strings.Join(words, " ")
}

// shellSpecial are the characters of our arguments a shell would expand.
const shellSpecial = "^$()|*?[] "

// Run runs the command, its output on ours.
func (c Command) Run() error {
	cmd := exec.Command(mg.GoCmd(), c.Args...)
	cmd.Env = append(os.Environ(), c.Env...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: %w", c, err)
	}
	return nil
}

// runAll runs commands in turn and stops at the first failure.
func runAll(cmds []Command) error {
	for _, c := range cmds {
		if err := c.Run(); err != nil {
			return err
		}
	}
	return nil
}

// Test runs every tier: vet, build (the magefile's release build), the
// unit tests and scenarios, and fuzzing, with the real-ctrld tier beside
// them from the start.
func Test(build func() error) error {
	realCtrld := startRealCtrldTier()
	err := inTurn(Vet, build, unitAndScenarios, Fuzz)
	return realCtrld.wait(err)
}

// UnitAndScenarios runs every package's tests, the real-ctrld tier beside
// the others.
func UnitAndScenarios() error {
	realCtrld := startRealCtrldTier()
	return realCtrld.wait(unitAndScenarios())
}

func inTurn(steps ...func() error) error {
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// Plan prints, tier by tier, the commands Test runs, without running them.
func Plan(w io.Writer) error {
	mod, err := listModule()
	if err != nil {
		return err
	}
	unit, err := mod.unitCommands()
	if err != nil {
		return err
	}
	fuzz, err := mod.fuzzCommands()
	if err != nil {
		return err
	}
	tiers := []struct {
		name string
		cmds []Command
	}{
		{"real-ctrld tier, beside the others", []Command{realCtrldCommand()}},
		{"vet", vetCommands()},
		{"build", nil},
		{"unit tests and scenarios", unit},
		{"fuzzing", fuzz},
	}
	for _, t := range tiers {
		fmt.Fprintf(w, "%s:\n", t.name)
		if t.cmds == nil {
			fmt.Fprintln(w, "  the release build (go run mage.go build)")
		}
		for _, c := range t.cmds {
			fmt.Fprintf(w, "  %s\n", c)
		}
	}
	return nil
}
