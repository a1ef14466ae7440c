package notary

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
)

// amazonDomain ends the host names of Amazon's own S3 endpoints.
const amazonDomain = ".amazonaws.com"

// objectURL is where the package goes. On Amazon's endpoints the bucket
// is part of the host name (virtual-hosted style, which S3 wants and
// transfer acceleration requires); on any other endpoint (a proxy, a
// test server) it is the path's first part.
func (c *client) objectURL(s submission) (*url.URL, error) {
	base, err := url.Parse(c.cfg.S3URL)
	if err != nil {
		return nil, err
	}
	path := "/" + strings.TrimPrefix(s.Object, "/")
	host := base.Host
	if strings.HasSuffix(strings.ToLower(base.Hostname()), amazonDomain) {
		host = s.Bucket + "." + base.Host
		path = strings.TrimRight(base.Path, "/") + path
	} else {
		path = strings.TrimRight(base.Path, "/") + "/" + s.Bucket + path
	}
	return &url.URL{Scheme: base.Scheme, Host: host, Path: path, RawPath: awsEscapePath(path)}, nil
}

// upload PUTs the package to the bucket and object the service named,
// signed with its temporary credentials.
func (c *client) upload(ctx context.Context, s submission, data []byte, sha256Hex string) error {
	target, err := c.objectURL(s)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, target.String(), bytes.NewReader(data))
	if err != nil {
		return err
	}
	req.URL = target
	req.ContentLength = int64(len(data))
	req.Header.Set("Content-Type", "application/octet-stream")
	signV4(req, s.Creds, s3Region, "s3", sha256Hex, c.now())
	status, body, err := c.send(req, uploadTimeout, maxResponse)
	if err != nil {
		return err
	}
	if status != http.StatusOK {
		return fmt.Errorf("upload to S3: HTTP %d%s", status, s3ErrorCode(body))
	}
	return nil
}

var s3Code = regexp.MustCompile(`<Code>([A-Za-z]{1,64})</Code>`)

// s3ErrorCode is the error's code only: S3's error documents can echo
// the canonical request, which holds the session token.
func s3ErrorCode(body []byte) string {
	if m := s3Code.FindSubmatch(body); m != nil {
		return " " + string(m[1])
	}
	return ""
}
