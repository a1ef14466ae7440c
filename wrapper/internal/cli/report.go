package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/fleet"
)

// stdinName is the file argument that means standard input.
const stdinName = "-"

// runReport reads fleet exports and prints the devices (or, where an
// input names no device, the attempts) per code: text, --json, and with
// --html FILE a self-contained page. Its output is built from the code
// table alone, so no input row, and no token in one, can reach it; inputs
// are named by their place, never by their names.
func runReport(sys System, args []string, stdout, stderr io.Writer) int {
	stdin := sys.Stdin
	fs := newFlagSet("report")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	htmlFile := fs.String("html", "", "also write the report as one self-contained HTML page to `FILE`")
	column := fs.String("column", "", "read the CSV column with this header `NAME` (default: the column holding result lines, or Intune's ErrorCode)")
	files, err := parseWithFiles(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		writeHelp(stdout, fs)
		return exitOK
	}
	if err != nil {
		printUsageError(stderr, "report", err)
		return exitUsage
	}
	if len(files) == 0 {
		files = []string{stdinName}
	}
	t := fleet.NewTally()
	for i, name := range files {
		// An input that cannot be read is named by its place, not its
		// name: the name may be a token typed in the wrong place.
		err := readInput(t, name, stdin, *column)
		switch {
		case errors.Is(err, fleet.ErrNoColumn):
			fmt.Fprintf(stderr, "%s report: input %d: %v\n", names.Wrapper, i+1, err)
			return exitUsage
		case err != nil:
			fmt.Fprintf(stderr, "%s report: input %d could not be read: %v\n", names.Wrapper, i+1, err)
			return exitFailed
		}
	}
	if *htmlFile != "" {
		if err := writeHTML(t, *htmlFile); err != nil {
			fmt.Fprintf(stderr, "%s report: the page could not be written: %v\n", names.Wrapper, err)
			return exitFailed
		}
	}
	if *asJSON {
		t.WriteJSON(stdout)
		return exitOK
	}
	t.WriteText(stdout)
	return exitOK
}

// parseWithFiles parses flags placed before, between or after the file
// arguments.
func parseWithFiles(fs *flag.FlagSet, args []string) ([]string, error) {
	var files []string
	for {
		if err := parseFlagsOnly(fs, args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return files, nil
		}
		files = append(files, args[0])
		args = args[1:]
	}
}

// readInput reads one input; its error never holds the file's name.
func readInput(t *fleet.Tally, name string, stdin io.Reader, column string) error {
	if name == stdinName {
		return withoutPath(t.Read(stdin, column))
	}
	f, err := os.Open(name)
	if err != nil {
		return withoutPath(err)
	}
	defer f.Close()
	return withoutPath(t.Read(f, column))
}

func withoutPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func writeHTML(t *fleet.Tally, name string) error {
	f, err := os.Create(name)
	if err != nil {
		return withoutPath(err)
	}
	if err := t.WriteHTML(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
