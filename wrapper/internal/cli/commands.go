package cli

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/ctrld-install/ctrld-install/internal/codes"
	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/msiexec"
)

// command is one row of the command table, which the top-level usage,
// each command's -h and the dispatch all read.
type command struct {
	name string
	// args follows the name in the usage line; flags are shown as
	// "[flags]" when the command has any.
	args string
	// summary is the one-line description; detail, when set, is said
	// after it in the command's own help.
	summary, detail string
	run             func(sys System, args []string, stdout, stderr io.Writer) int
}

// commandTable lists every command in the order the usage shows them. It
// is a function, not a variable, because the commands' help reads it.
func commandTable() []command {
	return []command{
		{name: "start", summary: `provision ctrld: run "ctrld start", print one line, exit with its code`, run: runStart},
		{name: "preflight", summary: "tell, changing nothing, whether start would fail and with which code", detail: preflightDetail(), run: runPreflight},
		{name: "configured", summary: "tell, printing nothing, whether start has work to do", detail: configuredDetail(), run: runConfigured},
		{name: "last", summary: "print the last recorded result line", detail: fmt.Sprintf("With no recorded line it prints nothing and exits %d.", exitNone), run: runLast},
		{name: "explain", summary: "explain the last recorded line: its code, the next safe action, the evidence", detail: "It shows the attempt's time and versions, what the code means, the next safe action and the evidence ctrld recorded for that attempt (bounded, token redacted).", run: runExplain},
		{name: "uninstall", summary: "package removal: ctrld uninstall, then delete the wrapper's records", run: runUninstall},
		{name: "install-msi", args: "FILE.msi [PROPERTY=value...]", summary: "Windows (Intune Win32 apps, RMM): run msiexec on the MSI and exit with its stage code", detail: installMSIDetail(), run: runInstallMSI},
		{name: "check-path", args: "PATH", summary: "for install.sh: print PATH as the kernel resolves it when only root can replace it", detail: checkPathDetail(), run: runCheckPath},
		{name: "codes", summary: "print the provisioning code table", run: runCodes},
		{name: "report", args: "[FILE...]", summary: "count devices per code in fleet exports", detail: reportDetail, run: runReport},
		{name: "version", summary: "print the version", run: runVersion},
	}
}

func lookupCommand(name string) (command, bool) {
	for _, c := range commandTable() {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

func commandNames() []string {
	var names []string
	for _, c := range commandTable() {
		names = append(names, c.name)
	}
	return names
}

// writeUsage writes the top-level usage: one aligned line per command.
func writeUsage(w io.Writer) {
	fmt.Fprintf(w, "usage: %s <command> [flags] [arguments]\n\ncommands:\n", names.Wrapper)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, c := range commandTable() {
		fmt.Fprintf(tw, "  %s\t%s\n", c.name, c.summary)
	}
	tw.Flush()
	fmt.Fprintf(w, "\nrun \"%s <command> -h\" for a command's usage and flags.\n", names.Wrapper)
}

func checkPathDetail() string {
	return fmt.Sprintf("With --dir PATH is a folder files will be put in. When another user could replace it, it says why on stderr and exits %d, what start answers for such a ctrld.", exitRefused)
}

func preflightDetail() string {
	return fmt.Sprintf("It prints one line (every check with -v, one JSON object with --json) and exits with the code start would answer, %d when ready.", exitOK)
}

func configuredDetail() string {
	return fmt.Sprintf("It exits %d when start has work to do (a token from any source, or an installed service to upgrade), %d when not, %d when interrupted.",
		exitOK, exitNone, codes.WrapperInterrupted.Exit)
}

func installMSIDetail() string {
	first, last := codes.Table[0].Exit, codes.Table[len(codes.Table)-1].Exit
	return fmt.Sprintf("It exits with the stage code the MSI's custom action recorded (%d-%d), or msiexec's own %d, %d, %d or %d; otherwise %d. The arguments after the MSI are public properties, upper-case names.",
		first, last, msiexec.Success, msiexec.RebootRequired, msiexec.RebootStarted, msiexec.AlreadyRunning, msiexec.Failure)
}

// reportDetail names the inputs report reads.
const reportDetail = `It reads Jamf extension-attribute CSV, Intune install-status CSV, install logs and result lines; standard input with no FILE or "-". Where the input names the device, each device counts once, by its latest attempt; elsewhere it counts attempts.`

// runVersion prints the version; it takes nothing.
func runVersion(sys System, args []string, stdout, stderr io.Writer) int {
	if exit, done := parseOrExplain(newFlagSet("version"), args, stdout, stderr); done {
		return exit
	}
	fmt.Fprintln(stdout, names.Wrapper, Version)
	return exitOK
}
