// Package preflight tells whether `ctrld-install start` would fail, and
// with which code, without changing anything: no service, no file, no
// DNS setting, no call that provisions a device. Each check sits in its
// own file; what differs between the OSes (who holds a port, ctrld's
// default listener) sits behind small seams.
package preflight

import (
	"context"
	"encoding/json"
	"strconv"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/codes"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/provision"
)

// Check is the answer of one check. Code is what start would report
// because of it; a failed check with no code is a warning: start would
// still get past it (the API's name does not resolve, but ctrld's fixed
// address answers).
type Check struct {
	Name   string
	OK     bool
	Code   codes.Code
	Detail string
}

// Fails reports whether the check predicts a failure of start.
func (c Check) Fails() bool { return !c.OK && c.Code.Name != "" }

// MarshalJSON writes {"name", "ok", "code", "detail"}; code is the code
// name, empty when the check predicts no failure.
func (c Check) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Name   string `json:"name"`
		OK     bool   `json:"ok"`
		Code   string `json:"code"`
		Detail string `json:"detail"`
	}{c.Name, c.OK, c.Code.Name, c.Detail})
}

// Result is every check, in the order start would meet what they judge.
type Result struct {
	Checks []Check
}

// Outcome is what start would report: the first failing check's code,
// in the order of Checks, or success.
func (r Result) Outcome() codes.Outcome {
	for _, c := range r.Checks {
		if c.Fails() {
			return codes.Failure(c.Code)
		}
	}
	return codes.Success
}

// Line is the one line preflight prints.
func Line(o codes.Outcome) string {
	if o.OK {
		return "preflight: ready (exit 0)"
	}
	return "preflight: would fail: stage=" + o.Code.Stage + " code=" + o.Code.Name + " (exit " + strconv.Itoa(o.Code.Exit) + ")"
}

// MarshalJSON writes {"result", "stage", "code", "exit", "checks"}:
// result is "ready" or "would-fail".
func (r Result) MarshalJSON() ([]byte, error) {
	o := r.Outcome()
	out := struct {
		Result string  `json:"result"`
		Stage  string  `json:"stage,omitempty"`
		Code   string  `json:"code,omitempty"`
		Exit   int     `json:"exit"`
		Checks []Check `json:"checks"`
	}{Result: "ready", Checks: r.Checks}
	if !o.OK {
		out.Result, out.Stage, out.Code, out.Exit = "would-fail", o.Code.Stage, o.Code.Name, o.Exit()
	}
	return json.Marshal(out)
}

// Options are what the checks look at. Every OS fact is given here.
type Options struct {
	// Start is the provisioner start would run, resolved from the same
	// flags; its Log collects the settings files' warnings.
	Start *provision.Provisioner
	// Warnings returns what Start's Log collected so far.
	Warnings func() []string
	// Listen are the addresses ctrld's listener would bind, UDP and TCP.
	Listen []string
	// Holders names the processes holding a port (nil: nobody is named).
	Holders HolderFinder
	API     API
	// Now is the clock the clock check reads.
	Now func() time.Time
}

// Run runs every check, bounded by ctx, and returns them in start's
// order: the wrapper's own checks before ctrld runs (the lock, the ctrld
// binary, the token and the other settings), then ctrld's stages in
// ctrld's order (bootstrap: the API; listener, where a service of the
// other ctrld line installed beside, or a ctrld daemon holding the port,
// is named first). On the upgrade path only the wrapper's checks and the
// other line's service apply: start reloads the service ctrld already
// runs, with its listener, and provisions nothing.
func Run(ctx context.Context, o Options) Result {
	var r Result
	r.Checks = append(r.Checks, installChecks(o.Start)...)
	if o.Start.Upgrade() {
		r.Checks = append(r.Checks, Check{Name: "upgrade", OK: true,
			Detail: "ctrld's service is installed: start reloads it; the token, API and listener checks of a fresh install do not apply"})
		r.Checks = append(r.Checks, besideChecks(o.Start)...)
		return redacted(o.Start, r)
	}
	r.Checks = append(r.Checks, settingsChecks(ctx, o.Start, o.Warnings)...)
	r.Checks = append(r.Checks, o.API.checks(ctx, o.Now)...)
	r.Checks = append(r.Checks, besideChecks(o.Start)...)
	listener := listenerChecks(ctx, o.Listen, o.Holders)
	r.Checks = append(r.Checks, portChecks(ctx, o.Listen, o.Holders, listener)...)
	r.Checks = append(r.Checks, listener...)
	return redacted(o.Start, r)
}

// redacted is the last guard: no detail carries a token value met in any
// source.
func redacted(p *provision.Provisioner, r Result) Result {
	for i := range r.Checks {
		r.Checks[i].Detail = p.Redact(r.Checks[i].Detail)
	}
	return r
}

func pass(name, detail string) Check { return Check{Name: name, OK: true, Detail: detail} }

func fail(name string, c codes.Code, detail string) Check {
	return Check{Name: name, Code: c, Detail: detail}
}

func warn(name, detail string) Check { return Check{Name: name, Detail: detail} }
