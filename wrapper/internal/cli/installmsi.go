package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/codes"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/msiexec"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/provision"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/record"
)

// runInstallMSI is the Intune Win32 / RMM mode: install the MSI with
// msiexec and exit with the stage code its custom action recorded, so the
// console shows 41 instead of 1603. It prints the recorded line when this
// attempt left one.
func runInstallMSI(sys System, args []string, stdout, stderr io.Writer) int {
	var in provision.Input
	fs := newFlagSet("install-msi")
	fs.StringVar(&in.Home, "home", "", "`DIR` where the result is recorded (default on Windows: %ProgramFiles%\\ControlD\\records)")
	err := parseArgs(fs, args, func(n int) string {
		if n < 1 {
			return "the MSI file is missing"
		}
		return ""
	})
	if exit, done := explainParse(fs, err, stdout, stderr); done {
		return exit
	}
	props := fs.Args()[1:]
	for _, p := range props {
		if !msiexec.ValidProperty(p) {
			// Not echoed: the value may be the token.
			printUsageError(stderr, "install-msi", usageError{"arguments after the MSI must be PROPERTY=value with an upper-case name"})
			return exitUsage
		}
	}
	dir := provision.Resolve(in, sys.OS, sys.Env, quiet{}).RecordDir
	path := sys.OS.Msiexec()
	if err := record.MakeRecordDir(dir); err != nil || path == "" {
		internal := codes.Failure(codes.WrapperInternal)
		fmt.Fprintln(stdout, internal.Line())
		return internal.Exit()
	}
	// The verbose log goes into the record folder, which only
	// administrators can write, created readable by SYSTEM and
	// Administrators only: a shared temp folder would let a user plant or
	// read it.
	install := msiexec.Install{MSI: fs.Arg(0), Properties: props, RecordDir: dir, LogDir: dir, Run: msiexecRunner(path), Now: time.Now}
	code, outcome, fresh := install.Do(context.Background())
	if fresh {
		fmt.Fprintln(stdout, outcome.Line())
	}
	return code
}

// msiexecRunner runs the msiexec at path with stdin closed and its own
// output discarded; the verbose log holds the detail.
func msiexecRunner(path string) msiexec.Runner {
	return func(ctx context.Context, args []string) (int, error) { return runMsiexec(ctx, path, args) }
}

func runMsiexec(ctx context.Context, path string, args []string) (int, error) {
	cmd := exec.CommandContext(ctx, path, args...)
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode(), nil
	}
	if err != nil {
		return 0, err
	}
	return 0, nil
}
