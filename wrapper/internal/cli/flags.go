package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/internal/settings"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/provision"
)

// usageError carries a message that never quotes a flag's value: a value
// may be the token typed in the wrong place.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// parseFlags parses with the standard flag package but rewrites its
// errors, which would echo the offending value.
func parseFlags(fs *flag.FlagSet, args []string) error {
	return parseArgs(fs, args, func(n int) string {
		if n > 0 {
			return "unexpected argument after the flags"
		}
		return ""
	})
}

// parseArgs parses like parseFlags, and then asks wantArgs whether the
// number of arguments left after the flags will do: it answers what is
// wrong, or "".
func parseArgs(fs *flag.FlagSet, args []string, wantArgs func(n int) string) error {
	if err := parseFlagsOnly(fs, args); err != nil {
		return err
	}
	if msg := wantArgs(fs.NArg()); msg != "" {
		return usageError{msg}
	}
	return nil
}

// parseFlagsOnly parses the flags up to the first argument.
func parseFlagsOnly(fs *flag.FlagSet, args []string) error {
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return err
	}
	return usageError{describeFlagError(fs, err)}
}

// describeFlagError names a flag only when it is one of ours: an unknown
// name may be a token typed in the wrong place.
func describeFlagError(fs *flag.FlagSet, err error) string {
	msg := err.Error()
	switch {
	case strings.HasPrefix(msg, "flag provided but not defined: "):
		return "unknown flag" + suggestion(strings.TrimPrefix(msg, "flag provided but not defined: "), flagNames(fs), "--")
	case strings.HasPrefix(msg, "flag needs an argument: "):
		return "flag needs a value: " + knownFlag(fs, strings.TrimPrefix(msg, "flag needs an argument: "))
	case strings.HasPrefix(msg, "invalid value "), strings.HasPrefix(msg, "invalid boolean value "):
		// "invalid value "x" for flag -timeout: ..." or, for booleans,
		// "invalid boolean value "x" for -dev: ...".
		if i := strings.LastIndex(msg, " for "); i >= 0 {
			name, _, _ := strings.Cut(strings.TrimPrefix(msg[i+len(" for "):], "flag "), ":")
			return "invalid value for flag " + knownFlag(fs, name) + wanted(fs, name)
		}
	}
	return "invalid flags"
}

// wanter is a flag value that says what it takes, in words of ours.
type wanter interface{ Want() string }

// wanted says what a known flag takes, when its value says.
func wanted(fs *flag.FlagSet, name string) string {
	f := fs.Lookup(strings.TrimLeft(name, "-"))
	if f == nil {
		return ""
	}
	if w, ok := f.Value.(wanter); ok {
		return ": want " + w.Want()
	}
	return ""
}

func knownFlag(fs *flag.FlagSet, name string) string {
	name = strings.TrimLeft(name, "-")
	if fs.Lookup(name) == nil {
		return "(unrecognised)"
	}
	return "--" + name
}

// durationFlag accepts only positive Go durations, and zero when
// zeroMeans says what zero does.
type durationFlag struct {
	d         *time.Duration
	zeroMeans bool
}

func (f durationFlag) String() string {
	if f.d == nil {
		return ""
	}
	return shortDuration(*f.d)
}

func (f durationFlag) Placeholder() string { return "DURATION" }

func (f durationFlag) Want() string {
	if f.zeroMeans {
		return "a duration such as 2m, or 0"
	}
	return "a positive duration such as 30s"
}

func (f durationFlag) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 || d == 0 && !f.zeroMeans {
		return fmt.Errorf("bad duration")
	}
	*f.d = d
	return nil
}

func printUsageError(w io.Writer, cmd string, err error) {
	fmt.Fprintf(w, "%[1]s %[2]s: %[3]v\nrun \"%[1]s %[2]s -h\" for its usage\n", names.Wrapper, cmd, err)
}

// parseOrExplain parses a subcommand's flags. It returns done=true with
// the exit code when the command must stop here: help was asked for
// (printed on stdout) or the flags are wrong (explained on stderr).
func parseOrExplain(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) (exit int, done bool) {
	return explainParse(fs, parseFlags(fs, args), stdout, stderr)
}

// explainParse ends a command whose flags were parsed with err: help
// printed on stdout, or what is wrong on stderr.
func explainParse(fs *flag.FlagSet, err error, stdout, stderr io.Writer) (exit int, done bool) {
	switch {
	case err == nil:
		return 0, false
	case errors.Is(err, flag.ErrHelp):
		writeHelp(stdout, fs)
		return exitOK, true
	}
	printUsageError(stderr, fs.Name(), err)
	return exitUsage, true
}

// textSetting is the flag of a Text setting: its value goes under its
// key.
type textSetting struct {
	s settings.Settings
	k settings.Key
}

func (f textSetting) String() string {
	if f.s == nil {
		return ""
	}
	return f.s[f.k]
}

// Placeholder names a setting's value: its choices, or the last word of
// its flag.
func (f textSetting) Placeholder() string {
	st, _ := settings.Lookup(f.k)
	if len(st.Choices) > 0 {
		return strings.Join(st.ChoiceValues(), "|")
	}
	words := strings.Split(st.Flag, "-")
	return strings.ToUpper(words[len(words)-1])
}

func (f textSetting) Set(v string) error {
	f.s[f.k] = v
	return nil
}

// optionalBool is the flag of a Bool setting. It also takes an empty
// value as false, so an installer can pass --dev=[PROPERTY] whether or
// not the property is set; the spellings are the settings' own. Only
// true is kept: given false, the managed settings decide.
type optionalBool textSetting

func (f optionalBool) IsBoolFlag() bool { return true }

func (f optionalBool) String() string {
	if f.s != nil && f.s.Bool(f.k) {
		return "true"
	}
	return "false"
}

func (f optionalBool) Set(v string) error {
	b, ok := settings.ParseBool(v)
	if !ok {
		return fmt.Errorf("not a boolean")
	}
	delete(f.s, f.k)
	if b {
		f.s[f.k] = strconv.FormatBool(b)
	}
	return nil
}

// settingFlags adds the flag of every setting of the table, each writing
// into in.Flags.
func settingFlags(fs *flag.FlagSet, in *provision.Input) {
	in.Flags = settings.Settings{}
	for _, st := range settings.Table {
		f := textSetting{in.Flags, st.Key}
		if st.Kind == settings.Bool {
			fs.Var(optionalBool(f), st.Flag, st.FlagUsage)
			continue
		}
		fs.Var(f, st.Flag, st.FlagUsage)
	}
}

// locationFlags is the command line of the subcommands that only need to
// know where ctrld and its home dir are (last, explain, uninstall).
func locationFlags(name string, in *provision.Input) *flag.FlagSet {
	fs := newFlagSet(name)
	fs.StringVar(&in.Ctrld, "ctrld", "", "`PATH` of the ctrld binary (default "+strings.Join(names.CtrldNames, " or ")+" beside "+names.Wrapper+")")
	fs.StringVar(&in.Home, "home", "", "ctrld home `DIR`, holding "+names.ResultFile+" (default "+names.Home+"; Windows: the ctrld folder, with the record in ControlD\\records under Program Files)")
	return fs
}

// locate parses the location flags of the subcommand name and resolves
// where ctrld, its home dir and the record are. These subcommands warn
// nowhere.
func locate(name string, sys System, args []string, stdout, stderr io.Writer) (cfg provision.Config, exit int, done bool) {
	var in provision.Input
	if exit, done := parseOrExplain(locationFlags(name, &in), args, stdout, stderr); done {
		return provision.Config{}, exit, true
	}
	return provision.Resolve(in, sys.OS, sys.Env, quiet{}), 0, false
}

// quiet drops warnings: commands that print nothing and log nothing.
type quiet struct{}

func (quiet) Warn(string) {}
