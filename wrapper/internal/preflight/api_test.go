package preflight

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/codes"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// fakeAPI is an HTTPS server for "example.com" (httptest's certificate)
// and the roots that trust it. It fails the test on any request but
// HEAD /: preflight must never provision.
func fakeAPI(t *testing.T) (*httptest.Server, *x509.CertPool) {
	t.Helper()
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodHead || r.URL.Path != "/" {
			t.Errorf("the API was asked %s %s", r.Method, r.URL.Path)
		}
	}))
	t.Cleanup(srv.Close)
	roots := x509.NewCertPool()
	roots.AddCert(srv.Certificate())
	return srv, roots
}

// noDNS is a resolver that fails at once.
var noDNS = &net.Resolver{PreferGo: true, Dial: func(context.Context, string, string) (net.Conn, error) {
	return nil, errors.New("no DNS here")
}}

// apiAt reaches srv under the name example.com: the name does not
// resolve, and the server's address is the fallback.
func apiAt(srv *httptest.Server, roots *x509.CertPool) API {
	host, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	return API{URL: &url.URL{Scheme: "https", Host: "example.com:" + port}, Fallback: []string{host}, Resolver: noDNS, Roots: roots, Step: 5 * time.Second}
}

func byName(checks []Check) map[string]Check {
	m := map[string]Check{}
	for _, c := range checks {
		m[c.Name] = c
	}
	return m
}

func TestAPIReachable(t *testing.T) {
	srv, roots := fakeAPI(t)
	got := byName(apiAt(srv, roots).checks(context.Background(), time.Now))
	if dns := got[checkDNS]; dns.OK || dns.Fails() || !strings.Contains(dns.Detail, "ctrld falls back to 127.0.0.1") {
		t.Errorf("a name that does not resolve is a warning when the fallback answers: %+v", dns)
	}
	for _, name := range []string{checkTCP, checkTLS, checkClock} {
		if !got[name].OK {
			t.Errorf("%s: %+v", name, got[name])
		}
	}
	if Result := (Result{Checks: apiAt(srv, roots).checks(context.Background(), time.Now)}); !Result.Outcome().OK {
		t.Errorf("outcome %v", Result.Outcome())
	}
}

// A chain that does not verify, for any reason, ends the handshake:
// the TLS check says why from what the handshake showed, and the peer
// gets not one byte of HTTP.
func TestAPIUnverifiedChainGetsNoRequest(t *testing.T) {
	later := func() time.Time { return time.Now().AddDate(200, 0, 0) }
	for name, tc := range map[string]struct {
		untrusted bool
		host      string
		now       func() time.Time
		want      string
	}{
		"unknown root":  {untrusted: true, now: time.Now, want: "a TLS-intercepting proxy replaced the API's certificate"},
		"clock far off": {now: later, want: "check the clock"},
		"wrong name":    {host: "api.controld.com", now: time.Now, want: "is not for api.controld.com"},
	} {
		t.Run(name, func(t *testing.T) {
			addr, roots, received := recordingAPI(t)
			if tc.untrusted {
				roots = x509.NewCertPool()
			}
			a := apiOn(addr, roots)
			if tc.host != "" {
				a.URL.Host = tc.host + ":" + a.URL.Port()
			}
			got := byName(a.checks(context.Background(), tc.now))
			if tls := got[checkTLS]; tls.Code != codes.APIUnreachable || !strings.Contains(tls.Detail, tc.want) {
				t.Errorf("tls: %+v", tls)
			}
			if clock, ok := got[checkClock]; ok {
				t.Errorf("the clock was judged over a chain that failed: %+v", clock)
			}
			select {
			case n := <-received:
				if n != 0 {
					t.Errorf("the peer got %d bytes of HTTP over a chain that did not verify", n)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the peer never saw the connection end")
			}
		})
	}
}

// recordingAPI is a TLS server for example.com that notes, for each
// connection, how many bytes arrived after the handshake (none when the
// handshake failed), and the roots that trust it.
func recordingAPI(t *testing.T) (string, *x509.CertPool, <-chan int) {
	t.Helper()
	ln, roots := exampleTLSListener(t)
	received := make(chan int, 8)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				c.SetDeadline(time.Now().Add(5 * time.Second))
				if c.(*tls.Conn).Handshake() != nil {
					received <- 0
					return
				}
				n, _ := io.Copy(io.Discard, c)
				received <- int(n)
			}()
		}
	}()
	return ln.Addr().String(), roots, received
}

// exampleTLSListener listens on loopback with a certificate for
// example.com from a throwaway CA, and returns the roots that trust it.
func exampleTLSListener(t *testing.T) (net.Listener, *x509.CertPool) {
	t.Helper()
	cert, caPEM, err := testenv.ThrowawayCert("preflight test CA", []string{"example.com"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(caPEM)
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{cert}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	return ln, roots
}

// apiOn reaches the server at addr under the name example.com, as apiAt.
func apiOn(addr string, roots *x509.CertPool) API {
	host, port, _ := net.SplitHostPort(addr)
	return API{URL: &url.URL{Scheme: "https", Host: "example.com:" + port}, Fallback: []string{host}, Resolver: noDNS, Roots: roots, Step: 5 * time.Second}
}

func TestAPIClockSkewWithinValidity(t *testing.T) {
	srv, roots := fakeAPI(t)
	later := func() time.Time { return time.Now().Add(time.Hour) }
	clock := byName(apiAt(srv, roots).checks(context.Background(), later))[checkClock]
	if clock.OK || clock.Fails() || !strings.Contains(clock.Detail, "ahead of the API's Date header; TLS still works") {
		t.Errorf("an hour off is a warning: %+v", clock)
	}
}

func TestAPIUnreachable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	a := API{URL: &url.URL{Scheme: "https", Host: addr}, Resolver: noDNS, Step: time.Second}
	got := byName(a.checks(context.Background(), time.Now))
	if got[checkTCP].Code != codes.APIUnreachable || !strings.Contains(strings.ToLower(got[checkTCP].Detail), "refused") {
		t.Errorf("tcp: %+v", got[checkTCP])
	}
	if _, ok := got[checkClock]; ok {
		t.Errorf("the clock was judged with no API to compare it with")
	}
}

// A server that accepts and never speaks: the run's bound ends the
// check, with the code ctrld would give.
func TestAPISilentIsBounded(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	a := API{URL: &url.URL{Scheme: "https", Host: ln.Addr().String()}, Resolver: noDNS, Step: time.Minute}
	tls := byName(a.checks(ctx, time.Now))[checkTLS]
	if tls.Code != codes.APIUnreachable || !strings.Contains(tls.Detail, "timed out") {
		t.Errorf("%+v", tls)
	}
}

// endlessHeaderAPI is a TLS server for example.com that answers any
// request with a status line and one header that never ends, as fast as
// the connection takes it. It returns the server's address and the roots
// that trust it.
func endlessHeaderAPI(t *testing.T) (string, *x509.CertPool) {
	t.Helper()
	ln, roots := exampleTLSListener(t)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go streamEndlessHeader(c)
		}
	}()
	return ln.Addr().String(), roots
}

func streamEndlessHeader(c net.Conn) {
	defer c.Close()
	c.SetDeadline(time.Now().Add(time.Minute))
	if _, err := c.Read(make([]byte, 1024)); err != nil {
		return
	}
	if _, err := c.Write([]byte("HTTP/1.1 200 OK\r\nX-Endless: ")); err != nil {
		return
	}
	chunk := bytes.Repeat([]byte("a"), 32<<10)
	for {
		if _, err := c.Write(chunk); err != nil {
			return
		}
	}
}

// A peer whose chain verifies but whose answer to HEAD / is one endless
// header: preflight reads a few KiB of it, not what the peer sends in
// the step's time, and ends at once.
func TestAPIEndlessHeaderIsBounded(t *testing.T) {
	step := 3 * time.Second
	a := apiOn(endlessHeaderAPI(t))
	a.Step = step
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	began := time.Now()
	got := byName(a.checks(context.Background(), time.Now))
	took := time.Since(began)
	runtime.ReadMemStats(&after)
	if !got[checkTLS].OK {
		t.Fatalf("tls: %+v", got[checkTLS])
	}
	clock := got[checkClock]
	if !strings.Contains(clock.Detail, "no complete HTTP answer in its first 4096 bytes") {
		t.Errorf("clock: %+v", clock)
	}
	const maxAlloc = 4 << 20
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > maxAlloc {
		t.Errorf("the checks allocated %d bytes for an endless header, want at most %d", alloc, maxAlloc)
	}
	if took >= step {
		t.Errorf("the checks took %v: the bound on the answer did not end the read", took)
	}
	t.Logf("took %v, allocated %d bytes", took, after.TotalAlloc-before.TotalAlloc)
}
