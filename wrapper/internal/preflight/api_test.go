package preflight

import (
	"context"
	"crypto/x509"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/wrapper/codes"
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

func TestAPIIntercepted(t *testing.T) {
	srv, _ := fakeAPI(t)
	got := byName(apiAt(srv, x509.NewCertPool()).checks(context.Background(), time.Now))
	tls := got[checkTLS]
	if tls.Code != codes.APIUnreachable || !strings.Contains(tls.Detail, "a TLS-intercepting proxy replaced the API's certificate") {
		t.Errorf("an unknown root: %+v", tls)
	}
}

func TestAPIClockFarOff(t *testing.T) {
	srv, roots := fakeAPI(t)
	later := func() time.Time { return time.Now().AddDate(200, 0, 0) }
	got := byName(apiAt(srv, roots).checks(context.Background(), later))
	if tls := got[checkTLS]; tls.Code != codes.APIUnreachable || !strings.Contains(tls.Detail, "check the clock") {
		t.Errorf("tls: %+v", tls)
	}
	clock := got[checkClock]
	if clock.Code != codes.APIUnreachable || !strings.Contains(clock.Detail, "ahead of the API's Date header: outside the certificate's validity") {
		t.Errorf("clock: %+v", clock)
	}
}

func TestAPIClockSkewWithinValidity(t *testing.T) {
	srv, roots := fakeAPI(t)
	later := func() time.Time { return time.Now().Add(time.Hour) }
	clock := byName(apiAt(srv, roots).checks(context.Background(), later))[checkClock]
	if clock.OK || clock.Fails() || !strings.Contains(clock.Detail, "ahead of the API's Date header; TLS still works") {
		t.Errorf("an hour off is a warning: %+v", clock)
	}
}

func TestAPIWrongName(t *testing.T) {
	srv, roots := fakeAPI(t)
	a := apiAt(srv, roots)
	a.URL.Host = "api.controld.com:" + a.URL.Port()
	tls := byName(a.checks(context.Background(), time.Now))[checkTLS]
	if tls.Code != codes.APIUnreachable || !strings.Contains(tls.Detail, "is not for api.controld.com") {
		t.Errorf("%+v", tls)
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
