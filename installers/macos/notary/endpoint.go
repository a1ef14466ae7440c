package notary

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"slices"
	"strings"
)

// checkEndpoint accepts https anywhere and plain http only on the
// loopback interface (a test server, a local proxy): the requests carry
// a bearer token, temporary credentials and the package.
func checkEndpoint(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return fmt.Errorf("%q is not an absolute URL", raw)
	}
	if u.User != nil {
		return errors.New("a URL with credentials in it is refused")
	}
	switch u.Scheme {
	case "https":
		return nil
	case "http":
		if isLoopback(u.Hostname()) {
			return nil
		}
		return fmt.Errorf("plain http is accepted for loopback only, not %s: use https", u.Hostname())
	}
	return fmt.Errorf("scheme %q: use https", u.Scheme)
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func sortedCopy(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}
