package preflight

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/codes"
)

// DefaultAPIURL is the API ctrld posts the token to.
const DefaultAPIURL = "https://api.controld.com"

// DefaultAPIFallback are the fixed addresses ctrld falls back to when the
// API's name does not resolve or answer (v1.5.0 dials both).
var DefaultAPIFallback = []string{"147.185.34.1", "2606:1a40:3::1"}

// API is where the API checks go. Each step (DNS, TCP, TLS, the Date
// header) is bounded by Step and by the whole run's context.
type API struct {
	URL *url.URL
	// Fallback are addresses tried after the name's, as ctrld does.
	Fallback []string
	Resolver *net.Resolver
	// Roots are the roots a chain must end at; nil is the system's trust
	// store, which ctrld uses.
	Roots *x509.CertPool
	Step  time.Duration
}

// The names of the API checks.
const (
	checkDNS   = "api-dns"
	checkTCP   = "api-tcp"
	checkTLS   = "api-tls"
	checkClock = "clock"
)

// checks reach the API the way ctrld would, one step a check, and ask it
// for nothing but its Date header: no request provisions a device.
func (a API) checks(ctx context.Context, now func() time.Time) []Check {
	host, port := a.URL.Hostname(), a.URL.Port()
	if port == "" {
		port = "443"
	}
	addrs, dns := a.resolve(ctx, host)
	conn, tcp := a.dial(ctx, addrs, port)
	if conn == nil {
		return []Check{dns, tcp, fail(checkTLS, codes.APIUnreachable, "not tried: no TCP connection")}
	}
	defer conn.Close()
	tlsConn, tlsCheck := a.handshake(ctx, conn, host, now())
	if tlsConn == nil {
		return []Check{dns, tcp, tlsCheck}
	}
	return []Check{dns, tcp, tlsCheck, a.clock(ctx, tlsConn, host, now)}
}

// resolve looks the name up with the system's resolver. A failure is a
// warning when ctrld has its fixed address to fall back to.
func (a API) resolve(ctx context.Context, host string) ([]string, Check) {
	if net.ParseIP(host) != nil {
		return []string{host}, pass(checkDNS, host+" is an address")
	}
	sctx, cancel := context.WithTimeout(ctx, a.Step)
	defer cancel()
	addrs, err := a.Resolver.LookupHost(sctx, host)
	if err == nil {
		return addrs, pass(checkDNS, host+" is "+strings.Join(addrs, ", "))
	}
	detail := host + " did not resolve: " + netReason(err)
	if len(a.Fallback) == 0 {
		return nil, fail(checkDNS, codes.APIUnreachable, detail)
	}
	return nil, warn(checkDNS, detail+"; ctrld falls back to "+strings.Join(a.Fallback, ", "))
}

// dial connects to the first address that answers: the name's, then the
// fallback.
func (a API) dial(ctx context.Context, addrs []string, port string) (net.Conn, Check) {
	for _, f := range a.Fallback {
		if !slices.Contains(addrs, f) {
			addrs = append(addrs, f)
		}
	}
	var tried []string
	for _, addr := range addrs {
		target := net.JoinHostPort(addr, port)
		sctx, cancel := context.WithTimeout(ctx, a.Step)
		conn, err := (&net.Dialer{}).DialContext(sctx, "tcp", target)
		cancel()
		if err == nil {
			return conn, pass(checkTCP, "connected to "+target)
		}
		tried = append(tried, target+": "+netReason(err))
	}
	if len(tried) == 0 {
		return nil, fail(checkTCP, codes.APIUnreachable, "no address to connect to")
	}
	return nil, fail(checkTCP, codes.APIUnreachable, strings.Join(tried, "; "))
}

// handshake runs TLS and checks the chain as ctrld's TLS would, but by
// hand, so that a chain that fails can still be described: who issued
// it and whether the clock is the reason. The chain is judged inside the
// handshake, so a chain that fails ends it: not one byte of HTTP goes to
// a peer that did not prove it is the API. The connection is nil unless
// the chain verified; for one that did not, what the handshake showed
// (the issuer, the validity against this machine's clock) is the report.
func (a API) handshake(ctx context.Context, conn net.Conn, host string, now time.Time) (*tls.Conn, Check) {
	conn.SetDeadline(stepDeadline(ctx, a.Step))
	var leaf *x509.Certificate
	var chain []*x509.Certificate
	var chainErr error
	judge := func(cs tls.ConnectionState) error {
		if len(cs.PeerCertificates) == 0 {
			chainErr = errNoCertificate
			return chainErr
		}
		leaf = cs.PeerCertificates[0]
		chain, chainErr = verify(cs.PeerCertificates, host, a.Roots, now)
		return chainErr
	}
	c := tls.Client(conn, &tls.Config{ServerName: host, InsecureSkipVerify: true, VerifyConnection: judge, MinVersion: tls.VersionTLS12})
	err := c.HandshakeContext(ctx)
	switch {
	case errors.Is(chainErr, errNoCertificate):
		return nil, fail(checkTLS, codes.APIUnreachable, "the server sent no certificate")
	case chainErr != nil:
		return nil, fail(checkTLS, codes.APIUnreachable, chainProblem(chainErr, leaf, host, now))
	case err != nil:
		return nil, fail(checkTLS, codes.APIUnreachable, "TLS handshake with "+conn.RemoteAddr().String()+" failed: "+netReason(err))
	}
	root := chain[len(chain)-1]
	return c, pass(checkTLS, "the certificate for "+host+" verifies to the root "+quoteName(root.Subject.CommonName, root.Subject.String())+"; a TLS-inspecting proxy trusted here would show its own root")
}

var errNoCertificate = errors.New("no certificate")

func verify(certs []*x509.Certificate, host string, roots *x509.CertPool, now time.Time) ([]*x509.Certificate, error) {
	inter := x509.NewCertPool()
	for _, c := range certs[1:] {
		inter.AddCert(c)
	}
	chains, err := certs[0].Verify(x509.VerifyOptions{DNSName: host, Roots: roots, Intermediates: inter, CurrentTime: now})
	if err != nil {
		return nil, err
	}
	return chains[0], nil
}

// chainProblem says why a chain fails, in the terms an admin acts on.
func chainProblem(err error, leaf *x509.Certificate, host string, now time.Time) string {
	issuer := quoteName(leaf.Issuer.CommonName, leaf.Issuer.String())
	var unknown x509.UnknownAuthorityError
	var invalid x509.CertificateInvalidError
	var name x509.HostnameError
	switch {
	case errors.As(err, &unknown):
		return "the certificate for " + host + " is issued by " + issuer + ", whose root this machine does not trust: a TLS-intercepting proxy replaced the API's certificate (or the trust store lacks the root); ctrld would report API_UNREACHABLE: exempt " + host + " from TLS inspection"
	case errors.As(err, &invalid) && invalid.Reason == x509.Expired:
		return "the certificate (issued by " + issuer + ") is not valid at this machine's time " + now.UTC().Format(time.RFC3339) + ": check the clock"
	case errors.As(err, &name):
		return "the certificate (issued by " + issuer + ") is not for " + host + ": something other than the API answered (a proxy or a captive portal)"
	}
	return "the certificate (issued by " + issuer + ") does not verify: " + netReason(err)
}

func quoteName(cn, full string) string {
	if cn == "" {
		cn = full
	}
	return `"` + printable(cn) + `"`
}

// stepDeadline is now plus step, or the run's deadline when sooner.
func stepDeadline(ctx context.Context, step time.Duration) time.Time {
	d := time.Now().Add(step)
	if end, ok := ctx.Deadline(); ok && end.Before(d) {
		return end
	}
	return d
}

// netReason is an error's last words: the OS's reason ("connection
// refused", "network is unreachable", "i/o timeout") without the
// addresses Go puts before it.
func netReason(err error) string {
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) || errors.As(err, &ne) && ne.Timeout() {
		return "timed out"
	}
	msg := err.Error()
	if i := strings.LastIndex(msg, ": "); i >= 0 {
		msg = msg[i+2:]
	}
	return printable(msg)
}
