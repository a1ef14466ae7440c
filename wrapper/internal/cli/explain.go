package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/codes"
	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/evidence"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/platform"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/provision"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/record"
)

// runExplain prints the last recorded line, when it was recorded, what
// its code means, the next safe action, and the evidence ctrld recorded
// for that attempt when a copy was kept. With no valid record it says so
// on stderr, and where it looked, and exits 1. Interrupted while it
// gathers the tokens to redact, it prints nothing and answers
// WRAPPER_INTERRUPTED's exit code.
func runExplain(sys System, args []string, stdout, stderr io.Writer) int {
	ctx, stop := interruptContext(exitQuietly)
	defer stop()
	var in provision.Input
	if exit, done := parseOrExplain(locationFlags("explain", &in), args, stdout, stderr); done {
		return exit
	}
	cfg := provision.Resolve(in, sys.OS, sys.Env, quiet{})
	exit := explain(ctx, stdout, sys.OS, cfg)
	if exit == exitNone {
		fmt.Fprintf(stderr, "%s explain: no attempt is recorded %s: run %s start first\n", names.Wrapper, whereLooked(in, cfg), names.Wrapper)
	}
	return exit
}

// whereLooked names the folder explain read the record from. A folder
// given on the command line is not echoed: it may be a token typed in
// the wrong place.
func whereLooked(in provision.Input, cfg provision.Config) string {
	if in.Home != "" || in.Ctrld != "" {
		return "(looked for " + record.LastFileName + " in the folder --home or --ctrld points at)"
	}
	return "(looked for " + filepath.Join(cfg.RecordDir, record.LastFileName) + ")"
}

func explain(ctx context.Context, stdout io.Writer, osys platform.OS, cfg provision.Config) int {
	dir := cfg.RecordDir
	o, ok := record.ReadLast(dir)
	if !ok {
		return exitNone
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", o.Line())
	explainAttempt(&b, dir)
	explainOutcome(&b, o)
	if !o.OK {
		tokens, err := provision.KnownTokens(ctx, cfg, osys)
		if err != nil {
			return interruptedExit
		}
		r, err := evidence.Load(dir, o.Line(), recordTime(dir), tokens)
		explainEvidence(&b, r, err)
	}
	io.WriteString(stdout, b.String())
	return exitOK
}

// recordTime is when the record was written; a kept copy older than that
// belongs to an earlier attempt.
func recordTime(dir string) time.Time {
	written, err := record.LastWritten(dir)
	if err != nil {
		return time.Now()
	}
	return written
}

// unrecorded is what explain says of a fact the record does not hold.
const unrecorded = "unknown (not recorded)"

// explainAttempt says when the attempt was recorded and with which
// versions, which support asks for.
func explainAttempt(b *strings.Builder, dir string) {
	at := unrecorded
	if t, err := record.LastWritten(dir); err == nil {
		at = t.UTC().Format(time.RFC3339)
	}
	b.WriteString("\nAttempt:\n")
	fmt.Fprintf(b, "%srecorded: %s\n", indent, at)
	fmt.Fprintf(b, "%s%s: %s (this binary; the attempt's own version is not recorded)\n", indent, names.Wrapper, Version)
	fmt.Fprintf(b, "%sctrld: %s\n", indent, unrecorded)
}

const (
	wrapWidth = 76
	indent    = "  "
)

func explainOutcome(b *strings.Builder, o codes.Outcome) {
	if o.OK {
		b.WriteString("\nctrld is provisioned and its service passed the success gate: nothing to do.\n")
		return
	}
	a, ok := codes.AdviceFor(o.Code)
	if !ok {
		return
	}
	if _, known := codes.Lookup(o.Code.Name); !known {
		b.WriteString("\nThis code comes from a newer ctrld; it is explained by its stage. Ask for the ctrld version.\n")
	}
	section(b, "What happened:", a.Scenario)
	section(b, "Class:", classText[codes.ClassOf(o.Code)])
	section(b, "Next safe action:", a.NextAction)
	section(b, "Evidence to ask for:", a.Evidence)
}

// classText says what a code's class means for the next attempt.
var classText = map[codes.Class]string{
	codes.Transient: "transient: the same install, run again later with nothing changed, can succeed (Intune retries it).",
	codes.Terminal:  "terminal: it fails the same way until something is fixed (Intune marks it failed).",
}

func explainEvidence(b *strings.Builder, r evidence.Record, err error) {
	const title = "Evidence ctrld recorded for this attempt"
	switch {
	case errors.Is(err, evidence.ErrNotReadable):
		section(b, title+":", "kept, but readable only by root or an administrator: run explain again with sudo, or in an elevated prompt.")
		return
	case err != nil:
		section(b, title+":", "none kept (ctrld left no result file that could be trusted for this attempt).")
		return
	}
	fmt.Fprintf(b, "\n%s (result file of %s):\n", title, r.ResultStamp)
	if r.Empty() {
		b.WriteString(indent + "the result file holds no message and no attempts\n")
	}
	// One line per item, never wrapped, so each can be searched for.
	if r.Message != "" {
		b.WriteString(indent + "message: " + r.Message + "\n")
	}
	for _, a := range r.Attempts {
		fmt.Fprintf(b, "%sattempt: %s %s: %s\n", indent, orDash(a.Addr), orDash(a.Proto), orDash(a.OSError))
	}
}

func section(b *strings.Builder, title, text string) {
	fmt.Fprintf(b, "\n%s\n", title)
	wrap(b, text)
}

// wrap writes text indented, broken at spaces to fit wrapWidth.
func wrap(b *strings.Builder, text string) { wrapIndented(b, text, indent, wrapWidth) }

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
