package notary

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Bounds on what the services may send back and how long one request
// may take; the upload of a package gets longer.
const (
	maxResponse    = 1 << 20
	maxLog         = 4 << 20
	requestTimeout = 2 * time.Minute
	uploadTimeout  = 30 * time.Minute
	maxRedirects   = 5
)

// client talks to the notary service, S3 and the ticket lookup. Every
// text it prints or returns that came from a server, or names a URL,
// passes through secrets first.
type client struct {
	cfg     Config
	http    *http.Client
	tokens  *tokenMaker
	secrets *secretSet
	out     io.Writer
	now     func() time.Time
}

func newClient(cfg Config, out io.Writer) *client {
	secrets := &secretSet{}
	hc := &http.Client{CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if len(via) >= maxRedirects {
			return errors.New("too many redirects")
		}
		return checkEndpoint(req.URL.String())
	}}
	return &client{cfg: cfg, http: hc, secrets: secrets, out: out, now: time.Now}
}

func (c *client) progress(format string, args ...any) {
	fmt.Fprintln(c.out, c.secrets.redact(fmt.Sprintf(format, args...)))
}

// send runs req within timeout and returns the status and at most limit
// bytes of the body. A transport error names the host, never the URL: a
// presigned log URL carries credentials in its query.
func (c *client) send(req *http.Request, timeout time.Duration, limit int64) (int, []byte, error) {
	ctx, cancel := context.WithTimeout(req.Context(), timeout)
	defer cancel()
	resp, err := c.http.Do(req.WithContext(ctx))
	if err != nil {
		return 0, nil, c.transportError(req, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return 0, nil, c.transportError(req, err)
	}
	if int64(len(body)) > limit {
		return 0, nil, fmt.Errorf("%s %s: answer larger than %d bytes", req.Method, req.URL.Host, limit)
	}
	return resp.StatusCode, body, nil
}

func (c *client) transportError(req *http.Request, err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return fmt.Errorf("%s %s: %s", req.Method, req.URL.Host, c.secrets.redact(err.Error()))
}

// api calls the Notary API with a fresh bearer token and decodes its
// JSON answer into out.
func (c *client) api(ctx context.Context, method, path string, in, out any) error {
	var body io.Reader
	if in != nil {
		data, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(data)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.cfg.NotaryURL+path, body)
	if err != nil {
		return err
	}
	token, err := c.tokens.token()
	if err != nil {
		return err
	}
	c.secrets.add(token)
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Accept", "application/json")
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	status, data, err := c.send(req, requestTimeout, maxResponse)
	if err != nil {
		return err
	}
	if status < 200 || status > 299 {
		return fmt.Errorf("notary service: %s %s: %s", method, path, c.apiError(status, data))
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("notary service: %s %s: the answer is not the documented JSON", method, path)
	}
	return nil
}

// apiError is the status and what App Store Connect's error objects say
// (code, title, detail), redacted and bounded; never the raw body.
func (c *client) apiError(status int, body []byte) string {
	var doc struct {
		Errors []struct{ Code, Title, Detail string } `json:"errors"`
	}
	msg := fmt.Sprintf("HTTP %d", status)
	if json.Unmarshal(body, &doc) != nil {
		return msg
	}
	for _, e := range doc.Errors {
		msg += "; " + strings.Join(nonEmpty(e.Code, e.Title, e.Detail), ": ")
	}
	return c.secrets.redact(bounded(msg, 2000))
}

func nonEmpty(parts ...string) []string {
	var out []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func bounded(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
