package release

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// WriteKinds prints Kinds for people: each kind's platforms and the
// inputs that sign it, so that the build targets' help need not retype
// them.
func WriteKinds(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "KIND\tPLATFORMS\tSIGNED WHEN SET")
	for _, k := range Kinds {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", k.Name, k.platformList(), k.signingHelp())
	}
	return tw.Flush()
}

func (k Kind) platformList() string {
	if len(k.Platforms) == 0 {
		return "(data, no binaries)"
	}
	arches := make([]string, len(k.Platforms))
	for i, p := range k.Platforms {
		arches[i] = p.Arch
	}
	list := k.OS + " " + strings.Join(arches, ", ")
	if k.Universal {
		list += " (one universal installer)"
	}
	return list
}

func (k Kind) signingHelp() string {
	if k.HowToSign == "" {
		return "-"
	}
	return k.HowToSign
}
