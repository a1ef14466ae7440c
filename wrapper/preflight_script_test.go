//go:build linux

package main

import (
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/lock"
)

// preflightGrammar is the one line preflight prints.
var preflightGrammar = regexp.MustCompile(`^preflight: (ready \(exit 0\)|would fail: stage=(input|bootstrap|listener|service|package) code=[A-Z_]+ \(exit [1-9][0-9]?\)|interrupted \(exit 68\))$`)

// preflightDefaults keep a scenario's preflight inside its work dir and
// off port 53; the API is the scenario's fake when it started one.
var preflightDefaults = [][2]string{
	{"--listen", "127.0.0.1:0"},
	{"--api-url", "$API_URL"},
	{"--api-ip", ""},
}

// preflight EXIT [flags...] runs `ctrld-install preflight` with start's
// usual flags and preflightDefaults (each unless the flags give it) and
// checks: the exit code, nothing on stderr, no canary in the output,
// and, without -v or --json, exactly one line of the grammar naming that
// exit code.
func cmdPreflight(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 {
		ts.Fatalf("usage: preflight EXIT [flags...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("bad exit code %q", args[0])
	}
	flags := withStartDefaults(ts, args[1:])
	for _, d := range preflightDefaults {
		if !hasFlag(flags, d[0]) {
			flags = append([]string{d[0] + "=" + os.Expand(d[1], ts.Getenv)}, flags...)
		}
	}
	got, err := testenv.ExitCode(ts.Exec("ctrld-install", append([]string{"preflight"}, flags...)...))
	if err != nil {
		ts.Fatalf("running ctrld-install: %v", err)
	}
	stdout, stderr := ts.ReadFile("stdout"), ts.ReadFile("stderr")
	if strings.Contains(stdout+stderr, testenv.Canary) {
		ts.Fatalf("canary token in output")
	}
	if got != want {
		ts.Fatalf("exit code %d, want %d\n%s", got, want, stdout)
	}
	if stderr != "" {
		ts.Fatalf("stderr not empty: %q", stderr)
	}
	if hasFlag(flags, "-v") || hasFlag(flags, "--json") {
		return
	}
	if !strings.HasSuffix(stdout, "\n") || strings.Count(stdout, "\n") != 1 || !preflightGrammar.MatchString(strings.TrimSuffix(stdout, "\n")) {
		ts.Fatalf("stdout is not exactly one line of the grammar: %q", stdout)
	}
	if !strings.HasSuffix(stdout, fmt.Sprintf("(exit %d)\n", want)) {
		ts.Fatalf("line %q does not carry exit %d", stdout, want)
	}
}

func hasFlag(args []string, name string) bool {
	for _, a := range args {
		if a == name || strings.HasPrefix(a, name+"=") {
			return true
		}
	}
	return false
}

// holdlock DIR holds the lock of the home dir DIR until the script
// ends, as a run would.
func cmdHoldLock(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: holdlock DIR")
	}
	l, err := lock.Acquire(ts.MkAbs(args[0]))
	ts.Check(err)
	ts.Defer(l.Release)
}

// marktree DIR leaves the tree marker of a killed run in the home dir
// DIR: its ctrld is a process of this user in a group of its own, which
// lives until the script ends.
func cmdMarkTree(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: marktree DIR")
	}
	sleep, err := exec.LookPath("sleep")
	ts.Check(err)
	cmd := exec.Command(sleep, "60")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	ts.Check(cmd.Start())
	ts.Defer(func() { cmd.Process.Kill(); cmd.Wait() })
	ts.Check(lock.MarkTree(ts.MkAbs(args[0]), cmd.Process.Pid, sleep))
}

// holdport binds UDP and TCP on one free loopback port and holds both
// until the script ends; $HELD is the address, $HOLDER_PID this process.
func cmdHoldPort(ts *testscript.TestScript, neg bool, args []string) {
	tcp, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	udp, err := net.ListenPacket("udp", tcp.Addr().String())
	ts.Check(err)
	ts.Defer(func() { tcp.Close(); udp.Close() })
	ts.Setenv("HELD", tcp.Addr().String())
	ts.Setenv("HOLDER_PID", strconv.Itoa(os.Getpid()))
}

// fakeapi [untrusted|silent] serves HTTPS on a free loopback port with a
// throwaway CA for localhost and sets $API_URL to it. The CA goes into
// $WORK/trust.pem, which SSL_CERT_FILE names, unless untrusted: then
// the trust store holds another CA, as when a TLS-intercepting proxy
// answers. Every request is noted, method and path, in $WORK/api-calls.
// silent accepts connections and never speaks; $WORK/api-accepted
// appears at the first.
func cmdFakeAPI(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) > 0 && args[0] == "silent" {
		silentAPI(ts)
		return
	}
	cert, caPEM, err := localhostCert()
	ts.Check(err)
	if len(args) > 0 && args[0] == "untrusted" {
		_, caPEM, err = localhostCert()
		ts.Check(err)
	}
	trust := ts.MkAbs("trust.pem")
	ts.Check(os.WriteFile(trust, caPEM, 0o644))
	ts.Setenv("SSL_CERT_FILE", trust)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	var mu sync.Mutex
	calls := ts.MkAbs("api-calls")
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			defer mu.Unlock()
			f, err := os.OpenFile(calls, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
			if err == nil {
				fmt.Fprintln(f, r.Method, r.URL.Path)
				f.Close()
			}
		}),
		TLSConfig:         &tls.Config{Certificates: []tls.Certificate{cert}},
		ReadHeaderTimeout: 5 * time.Second,
	}
	go srv.ServeTLS(ln, "", "")
	ts.Defer(func() { srv.Close() })
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	ts.Setenv("API_URL", "https://localhost:"+port)
}

func silentAPI(ts *testscript.TestScript) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	accepted := ts.MkAbs("api-accepted")
	go func() {
		var held []net.Conn
		defer func() {
			for _, c := range held {
				c.Close()
			}
		}()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			held = append(held, c)
			os.WriteFile(accepted, nil, 0o644)
		}
	}()
	ts.Defer(func() { ln.Close() })
	ts.Setenv("API_URL", "https://"+ln.Addr().String())
}

// localhostCert makes a CA and a server certificate for localhost and
// 127.0.0.1.
func localhostCert() (tls.Certificate, []byte, error) {
	return testenv.ThrowawayCert("preflight test CA", []string{"localhost"}, []net.IP{net.IPv4(127, 0, 0, 1)})
}
