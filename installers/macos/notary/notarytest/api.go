package notarytest

import (
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"strings"
	"time"
)

// maxTokenLife is App Store Connect's limit on exp - iat.
const maxTokenLife = 20 * 60

// authorized checks the bearer token as App Store Connect documents it.
func (s *Server) authorized(w http.ResponseWriter, r *http.Request) bool {
	if err := s.checkToken(strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")); err != nil {
		s.problem("API token: " + err.Error())
		writeJSON(w, http.StatusUnauthorized, map[string]any{"errors": []map[string]string{{
			"status": "401", "code": "NOT_AUTHORIZED", "title": "Authentication credentials are missing or invalid.", "detail": err.Error()}}})
		return false
	}
	return true
}

func (s *Server) checkToken(token string) error {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return fmt.Errorf("not a JWS compact token")
	}
	var header struct{ Alg, Kid, Typ string }
	var claims struct {
		Iss      string
		Aud      string
		Iat, Exp int64
	}
	if err := decodePart(parts[0], &header); err != nil {
		return err
	}
	if err := decodePart(parts[1], &claims); err != nil {
		return err
	}
	now := time.Now().Unix()
	switch {
	case header.Alg != "ES256" || header.Kid != KeyID || header.Typ != "JWT":
		return fmt.Errorf("header %+v", header)
	case claims.Iss != Issuer || claims.Aud != "appstoreconnect-v1":
		return fmt.Errorf("issuer or audience wrong")
	case claims.Exp-claims.Iat > maxTokenLife || claims.Exp <= now || claims.Iat > now+60:
		return fmt.Errorf("lifetime iat %d exp %d at %d", claims.Iat, claims.Exp, now)
	}
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil || len(sig) != 64 {
		return fmt.Errorf("signature is not 64 bytes of r and s")
	}
	digest := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	r, ss := new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])
	if !ecdsa.Verify(&s.key.PublicKey, digest[:], r, ss) {
		return fmt.Errorf("ES256 signature does not verify")
	}
	return nil
}

func decodePart(part string, v any) error {
	data, err := base64.RawURLEncoding.DecodeString(part)
	if err != nil {
		return fmt.Errorf("not base64url")
	}
	return json.Unmarshal(data, v)
}

func (s *Server) newSubmission(w http.ResponseWriter, r *http.Request) {
	if !s.authorized(w, r) {
		return
	}
	var req struct {
		SHA256         string `json:"sha256"`
		SubmissionName string `json:"submissionName"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.SubmissionName == "" || !isSHA256(req.SHA256) {
		s.problem(fmt.Sprintf("new submission body: %+v", req))
		writeJSON(w, http.StatusBadRequest, map[string]any{"errors": []map[string]string{{"status": "400", "code": "PARAMETER_ERROR.INVALID"}}})
		return
	}
	id := newID()
	sub := submission{ID: id, Name: req.SubmissionName, SHA256: req.SHA256, Object: "prod/AROACANARY:" + id}
	s.mu.Lock()
	s.submissions = append(s.submissions, sub)
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{
		"data": map[string]any{"type": "newSubmissions", "id": id, "attributes": map[string]string{
			"awsAccessKeyId": AccessKeyID, "awsSecretAccessKey": SecretKey, "awsSessionToken": SessionToken,
			"bucket": Bucket, "object": sub.Object}},
		"meta": map[string]any{}})
}

func (s *Server) find(id string) (submission, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, sub := range s.submissions {
		if sub.ID == id {
			return sub, true
		}
	}
	return submission{}, false
}

func (s *Server) status(w http.ResponseWriter, r *http.Request) {
	if !s.authorized(w, r) {
		return
	}
	sub, ok := s.find(r.PathValue("id"))
	if !ok {
		writeJSON(w, http.StatusNotFound, map[string]any{"errors": []map[string]string{{"status": "404", "code": "NOT_FOUND"}}})
		return
	}
	s.mu.Lock()
	verdict := s.Verdicts[min(s.polls, len(s.Verdicts)-1)]
	s.polls++
	if verdict == "Accepted" && s.ticket == nil {
		s.ticket = append([]byte("s8ch"), randomBytes(600)...)
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{
		"data": map[string]any{"type": "submissions", "id": sub.ID, "attributes": map[string]string{
			"createdDate": "2026-12-04T18:00:00.000Z", "name": sub.Name, "status": verdict}},
		"meta": map[string]any{}})
}

func (s *Server) logURL(w http.ResponseWriter, r *http.Request) {
	if !s.authorized(w, r) {
		return
	}
	id := r.PathValue("id")
	writeJSON(w, http.StatusOK, map[string]any{
		"data": map[string]any{"type": "submissionsLog", "id": id, "attributes": map[string]string{
			"developerLogUrl": s.URL + "/developer-log/" + id + "?X-Amz-Security-Token=" + SessionToken + "&X-Amz-Signature=" + LogSignature}},
		"meta": map[string]any{}})
}

// developerLog is the presigned download: no API token, the query's
// signature instead.
func (s *Server) developerLog(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("Authorization") != "" {
		s.problem("the log download carried an Authorization header")
	}
	if r.URL.Query().Get("X-Amz-Signature") != LogSignature {
		w.WriteHeader(http.StatusForbidden)
		return
	}
	s.mu.Lock()
	log := s.Log
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.Write([]byte(log))
}

func isSHA256(v string) bool {
	b, err := hex.DecodeString(v)
	return err == nil && len(b) == sha256.Size
}

func newID() string {
	b := randomBytes(16)
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

func randomBytes(n int) []byte {
	b := make([]byte, n)
	rand.Read(b)
	return b
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}
