package notary

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"
)

// awsCredentials are the temporary credentials the notary service
// returns with a submission. They are secrets: never printed.
type awsCredentials struct {
	AccessKeyID, SecretAccessKey, SessionToken string
}

const (
	sigV4Algorithm = "AWS4-HMAC-SHA256"
	amzDateFormat  = "20060102T150405Z"
	amzDayFormat   = "20060102"
)

// signV4 signs req with AWS Signature Version 4 in the Authorization
// header. It sets x-amz-date, x-amz-content-sha256 (payloadHash, the hex
// SHA-256 of the body) and, for temporary credentials,
// x-amz-security-token; every header on the request is signed, and so
// is Host. req.URL's escaped path must already be URI-encoded as AWS
// encodes it (awsEscapePath).
func signV4(req *http.Request, creds awsCredentials, region, service, payloadHash string, now time.Time) {
	now = now.UTC()
	req.Header.Set("X-Amz-Date", now.Format(amzDateFormat))
	req.Header.Set("X-Amz-Content-Sha256", payloadHash)
	if creds.SessionToken != "" {
		req.Header.Set("X-Amz-Security-Token", creds.SessionToken)
	}
	names, canonicalHeaders := canonicalHeaders(req)
	canonical := strings.Join([]string{
		req.Method, req.URL.EscapedPath(), canonicalQuery(req.URL), canonicalHeaders, names, payloadHash,
	}, "\n")
	scope := strings.Join([]string{now.Format(amzDayFormat), region, service, "aws4_request"}, "/")
	toSign := strings.Join([]string{sigV4Algorithm, now.Format(amzDateFormat), scope, hexSHA256([]byte(canonical))}, "\n")
	key := signingKey(creds.SecretAccessKey, now.Format(amzDayFormat), region, service)
	signature := hex.EncodeToString(hmacSHA256(key, []byte(toSign)))
	req.Header.Set("Authorization", sigV4Algorithm+" Credential="+creds.AccessKeyID+"/"+scope+
		",SignedHeaders="+names+",Signature="+signature)
}

// canonicalHeaders returns the signed header names (lower case, sorted,
// ";"-joined) and their canonical block, each line "name:value\n".
func canonicalHeaders(req *http.Request) (string, string) {
	values := map[string]string{"host": hostOf(req)}
	for name, vs := range req.Header {
		lower := strings.ToLower(name)
		if lower == "authorization" {
			continue
		}
		trimmed := make([]string, len(vs))
		for i, v := range vs {
			trimmed[i] = strings.Join(strings.Fields(v), " ")
		}
		values[lower] = strings.Join(trimmed, ",")
	}
	names := make([]string, 0, len(values))
	for name := range values {
		names = append(names, name)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, name := range names {
		b.WriteString(name + ":" + values[name] + "\n")
	}
	return strings.Join(names, ";"), b.String()
}

func hostOf(req *http.Request) string {
	if req.Host != "" {
		return req.Host
	}
	return req.URL.Host
}

func canonicalQuery(u *url.URL) string {
	q := u.Query()
	pairs := make([]string, 0, len(q))
	for k, vs := range q {
		for _, v := range vs {
			pairs = append(pairs, awsEscape(k, true)+"="+awsEscape(v, true))
		}
	}
	sort.Strings(pairs)
	return strings.Join(pairs, "&")
}

// awsEscapePath URI-encodes an object path the way AWS does: every byte
// but A-Z a-z 0-9 - _ . ~ and "/" becomes %XX (an object key of the
// notary service holds a ":").
func awsEscapePath(path string) string { return awsEscape(path, false) }

func awsEscape(s string, slash bool) string {
	const hexDigits = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'A' <= c && c <= 'Z', 'a' <= c && c <= 'z', '0' <= c && c <= '9', c == '-', c == '_', c == '.', c == '~':
			b.WriteByte(c)
		case c == '/' && !slash:
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(hexDigits[c>>4])
			b.WriteByte(hexDigits[c&15])
		}
	}
	return b.String()
}

func signingKey(secret, day, region, service string) []byte {
	k := hmacSHA256([]byte("AWS4"+secret), []byte(day))
	k = hmacSHA256(k, []byte(region))
	k = hmacSHA256(k, []byte(service))
	return hmacSHA256(k, []byte("aws4_request"))
}

func hmacSHA256(key, data []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write(data)
	return m.Sum(nil)
}

func hexSHA256(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
