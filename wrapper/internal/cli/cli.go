// Package cli is ctrld-install's command line: start, last, codes,
// version.
package cli

import (
	"fmt"
	"io"

	"github.com/ctrld-install/ctrld-install/contract"
	"github.com/ctrld-install/ctrld-install/wrapper/codes"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/platform"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/report"
)

// Version is set at build time.
var Version = "dev"

// Exit codes outside the code table.
const (
	exitOK    = 0
	exitNone  = 1 // `last` or `explain` found no recorded line
	exitUsage = 2
)

// interruptedExit is WRAPPER_INTERRUPTED's exit code, for the commands
// that print no line: a signal ended them before they could answer.
var interruptedExit = codes.WrapperInterrupted.Exit

const usage = `usage: ` + contract.Wrapper + ` <command> [flags]

commands:
  start    provision ctrld: run "ctrld start", print one line, exit with its code
  preflight  tell, changing nothing, whether start would fail and with which
           code: one line, exit with that code (-v every check, --json)
  configured  exit 0 when start has work to do (a token from any source, or an
           installed service to upgrade), 1 when not, 68 when interrupted;
           prints nothing
  last     print the last recorded result line
  explain  print that line, what its code means, the next safe action and the
           evidence ctrld recorded for that attempt (bounded, token redacted)
  uninstall  package removal: ctrld uninstall, then delete the wrapper's records
  install-msi FILE.msi [PROPERTY=value...]
           Windows (Intune Win32 apps, RMM): run msiexec on the MSI and exit with
           the stage code (21-69), or msiexec's 0, 3010, 1641, 1618; else 1603
  check-path [--dir] PATH
           for install.sh: print PATH resolved as the kernel resolves it when
           only root can replace the file (--dir: the folder) there; else say
           why on stderr and exit 62
  codes    print the provisioning code table (--json for JSON)
  report [FILE...]
           count devices per code in fleet exports (Jamf extension-attribute
           CSV, Intune install-status CSV, install logs, lines; stdin with no
           FILE or "-"): text, --json, --html FILE; --column NAME
  version  print the version

run "` + contract.Wrapper + ` start -h" for start's flags.
`

// System is the machine the command line runs on, given by main: the
// OS's behaviour, its log and the environment. Tests build their own main
// with other values; release code never switches on a test setting.
type System struct {
	OS platform.OS
	// OpenLog opens the OS log; only commands that log call it.
	OpenLog func() report.SystemLog
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
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "start":
		return runStart(sys, args[1:], stdout, stderr)
	case "preflight":
		return runPreflight(sys, args[1:], stdout, stderr)
	case "configured":
		return runConfigured(sys, args[1:], stdout, stderr)
	case "last":
		return runLast(sys, args[1:], stdout, stderr)
	case "explain":
		return runExplain(sys, args[1:], stdout, stderr)
	case "uninstall":
		return runUninstall(sys, args[1:], stdout, stderr)
	case "install-msi":
		return runInstallMSI(sys, args[1:], stdout, stderr)
	case "check-path":
		return runCheckPath(args[1:], stdout, stderr)
	case "codes":
		return runCodes(args[1:], stdout, stderr)
	case "report":
		return runReport(args[1:], sys.Stdin, stdout, stderr)
	case "version", "--version":
		fmt.Fprintln(stdout, contract.Wrapper, Version)
		return exitOK
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	// The word is not echoed: it may be a token typed in the wrong place.
	fmt.Fprintf(stderr, "%s: unknown command\n%s", contract.Wrapper, usage)
	return exitUsage
}
