package cli

import (
	"fmt"
	"io"

	"github.com/ctrld-install/ctrld-install/internal/codes"
	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/safefile"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/secret"
)

// exitRefused is check-path's answer for a path another user could
// replace: what start answers for such a ctrld.
var exitRefused = codes.CtrldNotFound.Exit

// runCheckPath applies start's trust rule to one absolute path, for
// install.sh: it prints the path resolved as the kernel resolves it (the
// one to copy to or run), or says on stderr why another user could
// replace it.
func runCheckPath(_ System, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("check-path")
	folder := fs.Bool("dir", false, "PATH is a folder files will be put in, not a file")
	err := parseArgs(fs, args, func(n int) string {
		if n != 1 {
			return "one PATH is needed"
		}
		return ""
	})
	if exit, done := explainParse(fs, err, stdout, stderr); done {
		return exit
	}
	path := fs.Arg(0)
	check := safefile.Replaceable
	if *folder {
		check = safefile.ReplaceableFolder
	}
	use, err := check(path)
	if err != nil {
		// The reason names the path too: the whole message loses any word
		// shaped like a token typed where a path belonged.
		fmt.Fprintf(stderr, "%s: %s\n", names.Wrapper, secret.RemoveTokenShaped(fmt.Sprintf("refusing %s: %v", path, err)))
		return exitRefused
	}
	fmt.Fprintln(stdout, use)
	return exitOK
}
