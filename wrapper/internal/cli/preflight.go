package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/codes"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/preflight"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/provision"
)

// Preflight's bounds: the whole run, and each network step in it.
const (
	preflightTimeout = 15 * time.Second
	preflightStep    = 5 * time.Second
)

// preflightInterrupted is what preflight prints when it is stopped.
const preflightInterrupted = "preflight: interrupted (exit 68)"

type preflightFlags struct {
	in      provision.Input
	verbose bool
	asJSON  bool
	listen  listFlag
	apiURL  string
	apiIPs  ipList
	timeout time.Duration
}

// newPreflightFlagSet takes start's flags, so preflight looks where
// start would look, and adds its own. --timeout bounds the whole check.
func newPreflightFlagSet(f *preflightFlags) *flag.FlagSet {
	fs := newSourceFlagSet("preflight", &f.in)
	f.timeout = preflightTimeout
	fs.Var(durationFlag{d: &f.timeout}, "timeout", "bound on the whole check")
	fs.BoolVar(&f.verbose, "v", false, "print every check after the line")
	fs.BoolVar(&f.asJSON, "json", false, "print one JSON object with every check instead of the line")
	fs.Var(&f.listen, "listen", "an address ctrld's listener would bind, UDP and TCP; repeat for more (default "+strings.Join(preflight.DefaultListen, ", ")+", ctrld's default)")
	fs.StringVar(&f.apiURL, "api-url", preflight.DefaultAPIURL, "the Control D `URL` the checks reach")
	f.apiIPs = ipList{ips: preflight.DefaultAPIFallback}
	fs.Var(&f.apiIPs, "api-ip", "an address tried when the API's name does not answer, as ctrld does; repeat for more, empty for none")
	return fs
}

// listFlag collects a repeated flag.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Placeholder() string { return "HOST:PORT" }

func (l *listFlag) Set(s string) error {
	if _, _, err := net.SplitHostPort(s); err != nil {
		return fmt.Errorf("not host:port")
	}
	*l = append(*l, s)
	return nil
}

// ipList is a repeated flag of IP addresses whose first use replaces
// the default; an empty value clears the list.
type ipList struct {
	ips []string
	set bool
}

func (l *ipList) String() string { return strings.Join(l.ips, ",") }

func (l *ipList) Placeholder() string { return "IP" }

func (l *ipList) Set(s string) error {
	if !l.set {
		l.ips, l.set = nil, true
	}
	if s == "" {
		l.ips = nil
		return nil
	}
	if net.ParseIP(s) == nil {
		return fmt.Errorf("not an IP address")
	}
	l.ips = append(l.ips, s)
	return nil
}

// runPreflight tells whether start would fail, and with which code,
// changing nothing. It prints one line (or, with --json, one object) and
// exits with the code it predicts.
func runPreflight(sys System, args []string, stdout, stderr io.Writer) int {
	var f preflightFlags
	fs := newPreflightFlagSet(&f)
	if exit, done := parseOrExplain(fs, args, stdout, stderr); done {
		return exit
	}
	parsedPrefsWait(fs, &f.in)
	api, err := url.Parse(f.apiURL)
	if err != nil || api.Scheme != "https" || api.Hostname() == "" {
		printUsageError(stderr, "preflight", usageError{"--api-url must be an https:// URL"})
		return exitUsage
	}
	if len(f.listen) == 0 {
		f.listen = preflight.DefaultListen
	}
	log := &collected{}
	p := &provision.Provisioner{Config: provision.Resolve(f.in, sys.OS, sys.Env, log), OS: sys.OS, Log: log}
	line := &oneLine{w: stdout}
	ctx, stop := interruptContext(func() { exitWith(line, preflightInterrupted) })
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, f.timeout)
	defer cancel()
	r := preflight.Run(ctx, preflight.Options{
		Start: p, Warnings: log.all, Listen: f.listen, Holders: preflight.DefaultHolders(),
		API: preflight.API{URL: api, Fallback: f.apiIPs.ips, Resolver: net.DefaultResolver, Step: preflightStep},
		Now: time.Now,
	})
	if interrupted(ctx) {
		line.printText(preflightInterrupted)
		return codes.WrapperInterrupted.Exit
	}
	return printPreflight(line, r, f)
}

func printPreflight(line *oneLine, r preflight.Result, f preflightFlags) int {
	o := r.Outcome()
	if f.asJSON {
		data, _ := json.MarshalIndent(r, "", "  ")
		line.printText(string(data))
		return o.Exit()
	}
	text := preflight.Line(o)
	if f.verbose {
		text += "\n" + describeChecks(r.Checks)
	}
	line.printText(text)
	return o.Exit()
}

// describeChecks is -v's list: one check a line.
func describeChecks(checks []preflight.Check) string {
	var b strings.Builder
	for i, c := range checks {
		if i > 0 {
			b.WriteByte('\n')
		}
		switch {
		case c.OK:
			fmt.Fprintf(&b, "  ok    %s: %s", c.Name, c.Detail)
		case c.Fails():
			fmt.Fprintf(&b, "  FAIL  %s: %s [%s, exit %d]", c.Name, c.Detail, c.Code.Name, c.Code.Exit)
		default:
			fmt.Fprintf(&b, "  warn  %s: %s", c.Name, c.Detail)
		}
	}
	return b.String()
}

func interrupted(ctx context.Context) bool {
	return errors.Is(context.Cause(ctx), provision.ErrInterrupted)
}

// exitWith answers a second stop signal: preflight runs nothing that
// must be stopped, so it prints text and exits at once.
func exitWith(line *oneLine, text string) {
	if line.printText(text) {
		os.Exit(codes.WrapperInterrupted.Exit)
	}
}

// collected keeps the warnings start would log, for the checks' details.
type collected struct {
	mu   sync.Mutex
	msgs []string
}

func (c *collected) Warn(msg string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.msgs = append(c.msgs, msg)
}

func (c *collected) Result(codes.Outcome) {}

func (c *collected) all() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.msgs...)
}
