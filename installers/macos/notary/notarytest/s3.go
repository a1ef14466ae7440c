package notarytest

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
)

// upload is S3's PUT Object: it checks the Signature Version 4
// Authorization header against the canary credentials, the session
// token, the payload hash and the submitted SHA-256.
func (s *Server) upload(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	sum := sha256.Sum256(body)
	hash := hex.EncodeToString(sum[:])
	object := r.PathValue("object")
	sub, known := s.submissionFor(object)
	canonical, err := checkSignature(r, hash)
	switch {
	case r.PathValue("bucket") != Bucket || !known:
		err = fmt.Errorf("bucket %q object %q were not handed out", r.PathValue("bucket"), object)
	case err == nil && sub.SHA256 != hash:
		err = fmt.Errorf("uploaded bytes differ from the submitted SHA-256")
	}
	s.mu.Lock()
	reject := s.RejectUpload
	s.mu.Unlock()
	if err != nil || reject {
		if err != nil {
			s.problem("upload: " + err.Error())
		}
		w.Header().Set("Content-Type", "application/xml")
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprintf(w, "<Error><Code>SignatureDoesNotMatch</Code><Message>no</Message><AWSAccessKeyId>%s</AWSAccessKeyId><CanonicalRequest>%s</CanonicalRequest></Error>", AccessKeyID, canonical)
		return
	}
	s.mu.Lock()
	s.uploaded = body
	s.mu.Unlock()
	w.WriteHeader(http.StatusOK)
}

func (s *Server) submissionFor(object string) (submission, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, sub := range s.submissions {
		if sub.Object == object {
			return sub, true
		}
	}
	return submission{}, false
}

// checkSignature recomputes the signature from the request as received
// and returns the canonical request it signed.
func checkSignature(r *http.Request, payloadHash string) (string, error) {
	auth := r.Header.Get("Authorization")
	fields := map[string]string{}
	rest, ok := strings.CutPrefix(auth, "AWS4-HMAC-SHA256 ")
	if !ok {
		return "", fmt.Errorf("not a Signature Version 4 header")
	}
	for _, kv := range strings.Split(rest, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(kv), "=")
		fields[k] = v
	}
	cred := strings.Split(fields["Credential"], "/")
	if len(cred) != 5 || cred[0] != AccessKeyID || cred[2] != "us-west-2" || cred[3] != "s3" || cred[4] != "aws4_request" {
		return "", fmt.Errorf("credential scope %q", fields["Credential"])
	}
	date := r.Header.Get("X-Amz-Date")
	if !strings.HasPrefix(date, cred[1]) || len(date) != 16 {
		return "", fmt.Errorf("x-amz-date %q outside the scope's day", date)
	}
	if r.Header.Get("X-Amz-Security-Token") != SessionToken {
		return "", fmt.Errorf("no or a wrong session token")
	}
	if r.Header.Get("X-Amz-Content-Sha256") != payloadHash {
		return "", fmt.Errorf("x-amz-content-sha256 is not the body's hash")
	}
	signed := strings.Split(fields["SignedHeaders"], ";")
	if !sort.StringsAreSorted(signed) || !contains(signed, "host") || !contains(signed, "x-amz-security-token") || !contains(signed, "x-amz-date") {
		return "", fmt.Errorf("signed headers %v", signed)
	}
	var headers strings.Builder
	for _, name := range signed {
		value := r.Header.Get(name)
		if name == "host" {
			value = r.Host
		}
		headers.WriteString(name + ":" + strings.TrimSpace(value) + "\n")
	}
	canonical := strings.Join([]string{r.Method, r.URL.EscapedPath(), r.URL.RawQuery, headers.String(), fields["SignedHeaders"], payloadHash}, "\n")
	crHash := sha256.Sum256([]byte(canonical))
	scope := strings.Join(cred[1:], "/")
	toSign := "AWS4-HMAC-SHA256\n" + date + "\n" + scope + "\n" + hex.EncodeToString(crHash[:])
	key := []byte("AWS4" + SecretKey)
	for _, part := range cred[1:] {
		key = mac(key, part)
	}
	if want := hex.EncodeToString(mac(key, toSign)); !hmac.Equal([]byte(want), []byte(fields["Signature"])) {
		return canonical, fmt.Errorf("signature does not match")
	}
	return canonical, nil
}

func mac(key []byte, data string) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(data))
	return m.Sum(nil)
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}
