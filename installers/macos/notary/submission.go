package notary

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
)

// The verdicts the notary service gives a submission.
const (
	StatusInProgress = "In Progress"
	StatusAccepted   = "Accepted"
	StatusInvalid    = "Invalid"
	StatusRejected   = "Rejected"
)

// submission is what the service answers to a new submission: its id,
// and where and with which temporary credentials to upload.
type submission struct {
	ID     string
	Bucket string
	Object string
	Creds  awsCredentials
}

type newSubmissionRequest struct {
	SHA256         string `json:"sha256"`
	SubmissionName string `json:"submissionName"`
}

type newSubmissionResponse struct {
	Data struct {
		ID         string `json:"id"`
		Attributes struct {
			AccessKeyID     string `json:"awsAccessKeyId"`
			SecretAccessKey string `json:"awsSecretAccessKey"`
			SessionToken    string `json:"awsSessionToken"`
			Bucket          string `json:"bucket"`
			Object          string `json:"object"`
		} `json:"attributes"`
	} `json:"data"`
}

// submit tells the service a file of this name and SHA-256 is coming.
func (c *client) submit(ctx context.Context, name, sha256Hex string) (submission, error) {
	var resp newSubmissionResponse
	if err := c.api(ctx, http.MethodPost, "/submissions", newSubmissionRequest{SHA256: sha256Hex, SubmissionName: name}, &resp); err != nil {
		return submission{}, err
	}
	a := resp.Data.Attributes
	c.secrets.add(a.AccessKeyID, a.SecretAccessKey, a.SessionToken)
	s := submission{ID: resp.Data.ID, Bucket: a.Bucket, Object: a.Object,
		Creds: awsCredentials{AccessKeyID: a.AccessKeyID, SecretAccessKey: a.SecretAccessKey, SessionToken: a.SessionToken}}
	if s.ID == "" || s.Bucket == "" || s.Object == "" || a.AccessKeyID == "" || a.SecretAccessKey == "" {
		return s, fmt.Errorf("notary service: the new submission lacks an id, a bucket, an object or credentials")
	}
	return s, nil
}

type statusResponse struct {
	Data struct {
		Attributes struct {
			Status string `json:"status"`
			Name   string `json:"name"`
		} `json:"attributes"`
	} `json:"data"`
}

func (c *client) status(ctx context.Context, id string) (string, error) {
	var resp statusResponse
	if err := c.api(ctx, http.MethodGet, "/submissions/"+url.PathEscape(id), nil, &resp); err != nil {
		return "", err
	}
	return resp.Data.Attributes.Status, nil
}

type logResponse struct {
	Data struct {
		Attributes struct {
			DeveloperLogURL string `json:"developerLogUrl"`
		} `json:"attributes"`
	} `json:"data"`
}

// developerLog fetches the log the service keeps for a finished
// submission. Its URL is temporary and presigned (credentials in the
// query): it is fetched without the API token and never printed.
func (c *client) developerLog(ctx context.Context, id string) ([]byte, error) {
	var resp logResponse
	if err := c.api(ctx, http.MethodGet, "/submissions/"+url.PathEscape(id)+"/logs", nil, &resp); err != nil {
		return nil, err
	}
	logURL := resp.Data.Attributes.DeveloperLogURL
	if err := checkEndpoint(logURL); err != nil {
		return nil, fmt.Errorf("the log's URL: %w", err)
	}
	if u, err := url.Parse(logURL); err == nil {
		c.secrets.add(u.RawQuery)
		for _, vs := range u.Query() {
			c.secrets.add(vs...)
		}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, logURL, nil)
	if err != nil {
		return nil, fmt.Errorf("the log's URL is not usable")
	}
	status, body, err := c.send(req, requestTimeout, maxLog)
	if err != nil {
		return nil, err
	}
	if status != http.StatusOK {
		return nil, fmt.Errorf("fetching the log: HTTP %d", status)
	}
	return body, nil
}
