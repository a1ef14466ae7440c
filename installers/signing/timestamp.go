package signing

import (
	"context"
	"crypto"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/sassoftware/relic/v8/lib/pkcs7"
	"github.com/sassoftware/relic/v8/lib/pkcs9"
)

// timestampTimeout bounds one request to the time-stamping authority.
const timestampTimeout = 30 * time.Second

// maxTimestampReply bounds what is read from the authority.
const maxTimestampReply = 1 << 20

// rfc3161 asks an RFC 3161 authority over HTTP for a token over a
// signature value.
type rfc3161 struct{ url string }

// Timestamper returns the identity's time-stamping client, or nil when no
// authority is configured.
func (id *Identity) Timestamper() pkcs9.Timestamper {
	if id == nil || id.TimestampURL == "" {
		return nil
	}
	return rfc3161{id.TimestampURL}
}

func (t rfc3161) Timestamp(ctx context.Context, req *pkcs9.Request) (*pkcs7.ContentInfoSignedData, error) {
	hash := req.Hash
	if hash == 0 {
		hash = crypto.SHA256
	}
	h := hash.New()
	h.Write(req.EncryptedDigest)
	msg, httpReq, err := pkcs9.NewRequest(t.url, hash, h.Sum(nil))
	if err != nil {
		return nil, fmt.Errorf("timestamp: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, timestampTimeout)
	defer cancel()
	resp, err := http.DefaultClient.Do(httpReq.WithContext(ctx))
	if err != nil {
		return nil, fmt.Errorf("timestamp: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("timestamp: %s answered %s", t.url, resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxTimestampReply))
	if err != nil {
		return nil, fmt.Errorf("timestamp: %w", err)
	}
	token, err := msg.ParseResponse(body)
	if err != nil {
		return nil, fmt.Errorf("timestamp from %s: %w", t.url, err)
	}
	return token, nil
}
