package preflight

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/ctrld-install/ctrld-install/wrapper/codes"
)

// maxSkew is how far this machine's clock may be from the API's before
// preflight warns; only a clock outside the certificate's validity
// breaks TLS, and that the TLS check already reports.
const maxSkew = 5 * time.Minute

// clock compares this machine's time with the Date header of the API's
// answer to HEAD /, which provisions nothing.
func (a API) clock(ctx context.Context, c *tls.Conn, host string, now func() time.Time) Check {
	leaf := c.ConnectionState().PeerCertificates[0]
	t := now()
	valid := !t.Before(leaf.NotBefore) && !t.After(leaf.NotAfter)
	date, err := serverDate(ctx, c, host, a.Step)
	if err != nil {
		detail := "the API sent no Date header (" + netReason(err) + ")"
		if !valid {
			return fail(checkClock, codes.APIUnreachable, detail+"; this machine's time "+t.UTC().Format(time.RFC3339)+" is outside the certificate's validity, so TLS fails")
		}
		return pass(checkClock, detail+"; this machine's time is within the certificate's validity")
	}
	skew := t.Sub(date).Round(time.Second)
	detail := "this machine's clock is " + describeSkew(skew) + " the API's Date header"
	if !valid {
		return fail(checkClock, codes.APIUnreachable, detail+": outside the certificate's validity, so TLS fails")
	}
	if skew > maxSkew || skew < -maxSkew {
		return warn(checkClock, detail+"; TLS still works")
	}
	return pass(checkClock, detail)
}

func describeSkew(skew time.Duration) string {
	switch {
	case skew == 0:
		return "the same as"
	case skew > 0:
		return skew.String() + " ahead of"
	}
	return (-skew).String() + " behind"
}

func serverDate(ctx context.Context, c *tls.Conn, host string, step time.Duration) (time.Time, error) {
	c.SetDeadline(stepDeadline(ctx, step))
	req := "HEAD / HTTP/1.1\r\nHost: " + host + "\r\nUser-Agent: ctrld-install-preflight\r\nConnection: close\r\n\r\n"
	if _, err := c.Write([]byte(req)); err != nil {
		return time.Time{}, err
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), &http.Request{Method: http.MethodHead})
	if err != nil {
		return time.Time{}, err
	}
	resp.Body.Close()
	date, err := http.ParseTime(resp.Header.Get("Date"))
	if err != nil {
		return time.Time{}, errors.New("no Date in the HTTP " + strconv.Itoa(resp.StatusCode) + " answer")
	}
	return date, nil
}
