// Package notarytest is a stand-in for Apple's notary service, the S3
// bucket it names and the ticket lookup, on a loopback server, for
// tests. It answers the requests Apple documents with the answers Apple
// documents, and checks each request as the real services would: the
// API token (ES256, key id, issuer, audience, lifetime), the upload's
// Signature Version 4 and session token, and the uploaded bytes against
// the submitted SHA-256. Every violation is recorded in Problems.
package notarytest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// Canary credentials the fake hands out or is given: tests check that
// none of them ever shows up in any output.
const (
	AccessKeyID  = "ASIACANARYACCESSKEY7"
	SecretKey    = "canary-aws-secret-0d3f9a7c2b-do-not-print"
	SessionToken = "canary-aws-session-token-7e1f4b2a9c-do-not-print"
	LogSignature = "canary-log-url-signature-5a6b7c8d9e"
	Issuer       = "69a6de70-0000-47e3-e053-5b8c7c11a4d1"
	KeyID        = "CANARY2X9K"
	Bucket       = "notary-submissions-prod"
)

// Server is the fake. Set Verdicts, Log and the Reject* fields before
// the code under test runs; read the rest after.
type Server struct {
	*httptest.Server
	// KeyPath is the .p8 file the fake trusts.
	KeyPath string
	// KeyBase64 is the key's base64 text, to check no output holds it.
	KeyBase64 string

	mu sync.Mutex
	// Verdicts are the statuses successive status requests get; the
	// last one repeats.
	Verdicts []string
	// Log is the developer log served for the submission.
	Log string
	// RejectUpload makes S3 refuse the upload with an error document
	// that echoes the canonical request (session token included), as
	// S3's SignatureDoesNotMatch does.
	RejectUpload bool
	// NoTicket makes the lookup answer NOT_FOUND.
	NoTicket bool

	key         *ecdsa.PrivateKey
	problems    []string
	submissions []submission
	uploaded    []byte
	polls       int
	ticket      []byte
	lookups     []string
}

type submission struct {
	ID, Name, SHA256, Object string
}

// New starts the fake and writes its API key as a .p8 file.
func New(t testing.TB) *Server {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	keyPEM := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})
	path := filepath.Join(t.TempDir(), "AuthKey_"+KeyID+".p8")
	if err := os.WriteFile(path, keyPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	s := &Server{KeyPath: path, KeyBase64: base64.StdEncoding.EncodeToString(der), key: key, Verdicts: []string{"Accepted"}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /notary/v2/submissions", s.newSubmission)
	mux.HandleFunc("GET /notary/v2/submissions/{id}", s.status)
	mux.HandleFunc("GET /notary/v2/submissions/{id}/logs", s.logURL)
	mux.HandleFunc("GET /developer-log/{id}", s.developerLog)
	mux.HandleFunc("PUT /s3/{bucket}/{object...}", s.upload)
	mux.HandleFunc("POST /ticket/records/lookup", s.lookup)
	s.Server = httptest.NewServer(mux)
	t.Cleanup(s.Close)
	return s
}

// Env is the environment that points the code under test at the fake.
func (s *Server) Env() map[string]string {
	return map[string]string{
		"CTRLD_NOTARY_ISSUER": Issuer, "CTRLD_NOTARY_KEY_ID": KeyID, "CTRLD_NOTARY_KEY": s.KeyPath,
		"CTRLD_NOTARY_URL": s.URL + "/notary/v2", "CTRLD_NOTARY_S3_URL": s.URL + "/s3",
		"CTRLD_TICKET_URL": s.URL + "/ticket/records/lookup",
	}
}

// Getenv looks names up in Env.
func (s *Server) Getenv(name string) string { return s.Env()[name] }

// Secrets is every secret value in play, for canary checks.
func (s *Server) Secrets() []string {
	return []string{SecretKey, SessionToken, LogSignature, s.KeyBase64}
}

// Problems lists every request the real services would have refused.
func (s *Server) Problems() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.problems...)
}

// Uploaded is what reached the bucket.
func (s *Server) Uploaded() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]byte(nil), s.uploaded...)
}

// Polls is how many status requests came.
func (s *Server) Polls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.polls
}

// Ticket is the ticket the fake issued on acceptance, and Lookups the
// record names asked for.
func (s *Server) Ticket() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]byte(nil), s.ticket...)
}

func (s *Server) Lookups() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.lookups...)
}

func (s *Server) problem(msg string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.problems = append(s.problems, msg)
}
