// Package cli is ctrld-install's command line: the commands of its
// command table, their flags and their help.
package cli

import (
	"fmt"
	"io"

	"github.com/ctrld-install/ctrld-install/internal/codes"
	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/platform"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/record"
)

// Version is set at build time.
var Version = "dev"

// Exit codes outside the code table.
const (
	exitOK   = 0
	exitNone = 1 // `last` or `explain` found no recorded line
	// exitFailed is a command that could not do its work for a reason
	// that is not a usage error: `report` could not read an input.
	exitFailed = 1
	exitUsage  = 2
)

// interruptedExit is WRAPPER_INTERRUPTED's exit code, for the commands
// that print no line: a signal ended them before they could answer.
var interruptedExit = codes.WrapperInterrupted.Exit

// System is the machine the command line runs on, given by main: the
// OS's behaviour, its log and the environment. Tests build their own main
// with other values; release code never switches on a test setting.
type System struct {
	OS platform.OS
	// OpenLog opens the OS log; only commands that log call it.
	OpenLog func() record.SystemLog
	// Env is the wrapper's environment, as os.Environ returns it.
	Env []string
	// Stdin is the input `report` reads when given no file or "-".
	Stdin io.Reader
}

// Run runs the command line and returns the process exit code. On start,
// stdout gets exactly one line and stderr nothing; only a usage error
// writes to stderr.
func Run(sys System, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		writeUsage(stderr)
		return exitUsage
	}
	switch args[0] {
	case "help", "-h", "--help":
		writeUsage(stdout)
		return exitOK
	case "--version":
		return runVersion(sys, nil, stdout, stderr)
	}
	if c, ok := lookupCommand(args[0]); ok {
		return c.run(sys, args[1:], stdout, stderr)
	}
	// The word is not echoed: it may be a token typed in the wrong place.
	fmt.Fprintf(stderr, "%s: unknown command%s\n", names.Wrapper, suggestion(args[0], commandNames(), ""))
	writeUsage(stderr)
	return exitUsage
}
