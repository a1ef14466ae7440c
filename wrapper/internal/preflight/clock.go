package preflight

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"time"
)

// maxSkew is how far this machine's clock may be from the API's before
// preflight warns; only a clock outside the certificate's validity
// breaks TLS, and that the TLS check already reports.
const maxSkew = 5 * time.Minute

// clock compares this machine's time with the Date header of the API's
// answer to HEAD /, which provisions nothing. It runs only over a chain
// that verified at this machine's time, so TLS works whatever the skew.
func (a API) clock(ctx context.Context, c *tls.Conn, host string, now func() time.Time) Check {
	date, err := serverDate(ctx, c, host, a.Step)
	if err != nil {
		return pass(checkClock, "the API sent no Date header ("+netReason(err)+"); this machine's time is within the certificate's validity")
	}
	skew := now().Sub(date).Round(time.Second)
	detail := "this machine's clock is " + describeSkew(skew) + " the API's Date header"
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

// maxHeadAnswer bounds what is read of the answer to HEAD /: its status
// line and headers, which need far less. A peer that sends more gets no
// more attention than one that sends nothing.
const maxHeadAnswer = 4 << 10

func serverDate(ctx context.Context, c *tls.Conn, host string, step time.Duration) (time.Time, error) {
	c.SetDeadline(stepDeadline(ctx, step))
	req := "HEAD / HTTP/1.1\r\nHost: " + host + "\r\nUser-Agent: ctrld-install-preflight\r\nConnection: close\r\n\r\n"
	if _, err := c.Write([]byte(req)); err != nil {
		return time.Time{}, err
	}
	answer := bufio.NewReaderSize(io.LimitReader(c, maxHeadAnswer), maxHeadAnswer)
	resp, err := http.ReadResponse(answer, &http.Request{Method: http.MethodHead})
	var timeout net.Error
	if errors.As(err, &timeout) && timeout.Timeout() {
		return time.Time{}, err
	}
	if err != nil {
		return time.Time{}, errors.New("no complete HTTP answer in its first " + strconv.Itoa(maxHeadAnswer) + " bytes")
	}
	resp.Body.Close()
	date, err := http.ParseTime(resp.Header.Get("Date"))
	if err != nil {
		return time.Time{}, errors.New("no Date in the HTTP " + strconv.Itoa(resp.StatusCode) + " answer")
	}
	return date, nil
}
