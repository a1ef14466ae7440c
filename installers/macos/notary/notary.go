// Package notary notarizes a signed macOS flat package with Apple's
// notary service and staples the ticket to it, in Go, from any OS: the
// Notary API (a JWT signed with the team's App Store Connect key), the
// upload to the Amazon S3 bucket the service names (Signature Version 4
// with the temporary credentials it returns), a bounded wait for the
// verdict with Apple's log on a rejection, and the ticket lookup and the
// trailer Apple's stapler appends to a flat package.
package notary

import (
	"fmt"
	"strings"
	"time"
)

// The inputs, read from the environment.
const (
	IssuerEnv    = "CTRLD_NOTARY_ISSUER"
	KeyIDEnv     = "CTRLD_NOTARY_KEY_ID"
	KeyEnv       = "CTRLD_NOTARY_KEY"
	NotaryURLEnv = "CTRLD_NOTARY_URL"
	S3URLEnv     = "CTRLD_NOTARY_S3_URL"
	TicketURLEnv = "CTRLD_TICKET_URL"
)

// Where Apple's services answer by default. The notary service names
// only a bucket and an object; notarytool's endpoint without transfer
// acceleration is Amazon's S3 in us-west-2.
const (
	DefaultNotaryURL = "https://appstoreconnect.apple.com/notary/v2"
	DefaultS3URL     = "https://s3.us-west-2.amazonaws.com"
	DefaultTicketURL = "https://api.apple-cloudkit.com/database/1/com.apple.gk.ticket-delivery/production/public/records/lookup"
	s3Region         = "us-west-2"
)

// How long Notarize waits for Apple's verdict, and how often it asks.
// Most packages are judged within minutes; an hour covers Apple's slow
// days without leaving a release job hanging.
const (
	PollInterval = 30 * time.Second
	PollTimeout  = time.Hour
)

// Config is what notarizing and stapling need.
type Config struct {
	Issuer, KeyID, KeyPath string
	NotaryURL, S3URL       string
	TicketURL              string
	// Interval and Timeout bound the wait; zero means PollInterval and
	// PollTimeout.
	Interval, Timeout time.Duration
}

// FromEnv reads the configuration. Only the ticket lookup's URL is
// needed for stapling, so the API key is checked by Notarize, not here.
func FromEnv(getenv func(string) string) (Config, error) {
	c := Config{
		Issuer: strings.TrimSpace(getenv(IssuerEnv)), KeyID: strings.TrimSpace(getenv(KeyIDEnv)),
		KeyPath:   getenv(KeyEnv),
		NotaryURL: orDefault(getenv(NotaryURLEnv), DefaultNotaryURL),
		S3URL:     orDefault(getenv(S3URLEnv), DefaultS3URL),
		TicketURL: orDefault(getenv(TicketURLEnv), DefaultTicketURL),
	}
	for _, e := range []struct{ env, url string }{{NotaryURLEnv, c.NotaryURL}, {S3URLEnv, c.S3URL}, {TicketURLEnv, c.TicketURL}} {
		if err := checkEndpoint(e.url); err != nil {
			return c, fmt.Errorf("%s: %w", e.env, err)
		}
	}
	return c, nil
}

func (c Config) checkKey() error {
	var missing []string
	for env, v := range map[string]string{IssuerEnv: c.Issuer, KeyIDEnv: c.KeyID, KeyEnv: c.KeyPath} {
		if v == "" {
			missing = append(missing, env)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("notarize needs the team's App Store Connect API key: set %s (the issuer id, the key id, the .p8 file)", strings.Join(sortedCopy(missing), ", "))
	}
	return nil
}

func (c Config) interval() time.Duration { return positiveOr(c.Interval, PollInterval) }
func (c Config) timeout() time.Duration  { return positiveOr(c.Timeout, PollTimeout) }

func positiveOr(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

func orDefault(v, def string) string {
	if v = strings.TrimSpace(v); v != "" {
		return strings.TrimRight(v, "/")
	}
	return def
}
