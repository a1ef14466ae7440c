package cli

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/names"
)

// helpWidth is the width the help text is wrapped to.
const helpWidth = 78

// newFlagSet is the flag set of the command name, which the table lists.
func newFlagSet(name string) *flag.FlagSet {
	return flag.NewFlagSet(name, flag.ContinueOnError)
}

// placeholder is a flag value that names what it takes, for the help.
type placeholder interface{ Placeholder() string }

// writeHelp writes a command's help: its usage line, its description and
// its flags as they are typed, each with one default.
func writeHelp(w io.Writer, fs *flag.FlagSet) {
	c, _ := lookupCommand(fs.Name())
	fmt.Fprintf(w, "usage: %s\n\n", usageLine(c, hasFlags(fs)))
	var b strings.Builder
	wrapIndented(&b, upperFirst(c.summary)+".", "", helpWidth)
	if c.detail != "" {
		wrapIndented(&b, c.detail, "", helpWidth)
	}
	io.WriteString(w, b.String())
	if !hasFlags(fs) {
		return
	}
	b.Reset()
	b.WriteString("\nflags:\n")
	fs.VisitAll(func(f *flag.Flag) {
		b.WriteString("  " + flagSpelling(f.Name))
		if p := flagPlaceholder(f); p != "" {
			b.WriteString(" " + p)
		}
		b.WriteByte('\n')
		wrapIndented(&b, flagUsage(f), "      ", helpWidth)
	})
	io.WriteString(w, b.String())
}

func usageLine(c command, flags bool) string {
	line := names.Wrapper + " " + c.name
	if flags {
		line += " [flags]"
	}
	if c.args != "" {
		line += " " + c.args
	}
	return line
}

func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n > 0
}

// flagSpelling is a flag as the docs write it: two dashes, except for a
// one-letter flag.
func flagSpelling(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// flagPlaceholder names what the flag takes: the value's own name, or
// the word in backquotes in its usage; a boolean takes nothing.
func flagPlaceholder(f *flag.Flag) string {
	if p, ok := f.Value.(placeholder); ok {
		return p.Placeholder()
	}
	if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
		return ""
	}
	name, _ := flag.UnquoteUsage(f)
	return name
}

// flagUsage is the flag's help with its default said once. A flag whose
// default depends on the OS says so in its help and has no default value.
func flagUsage(f *flag.Flag) string {
	_, usage := flag.UnquoteUsage(f)
	if zeroDefault(f.DefValue) {
		return usage
	}
	return usage + " (default " + f.DefValue + ")"
}

func zeroDefault(v string) bool {
	switch v {
	case "", "0", "0s", "false":
		return true
	}
	return false
}

// shortDuration writes d without the zero units Go adds: 5m, not 5m0s.
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// wrapIndented writes text, each line starting with indent, broken at
// spaces to fit width.
func wrapIndented(b *strings.Builder, text, indent string, width int) {
	line := indent
	for _, word := range strings.Fields(text) {
		if len(line) > len(indent) && len(line)+1+len(word) > width {
			b.WriteString(line + "\n")
			line = indent
		}
		if len(line) > len(indent) {
			line += " "
		}
		line += word
	}
	b.WriteString(line + "\n")
}
