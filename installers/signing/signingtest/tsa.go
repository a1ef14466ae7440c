package signingtest

import (
	"encoding/asn1"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

var oidTimeStamping = asn1.ObjectIdentifier{1, 3, 6, 1, 5, 5, 7, 3, 8}

// tsaConfig is the minimum OpenSSL's "ts -reply" needs.
const tsaConfig = `[ tsa ]
default_tsa = test_tsa
[ test_tsa ]
serial = %SERIAL%
crypto_device = builtin
signer_digest = sha256
default_policy = 1.2.3.4.1
digests = sha1, sha256, sha384, sha512
accuracy = secs:1
ordering = yes
tsa_name = yes
ess_cert_id_chain = no
ess_cert_id_alg = sha256
`

// StartTSA runs an RFC 3161 time-stamping authority on a local port,
// answered by the openssl binary given with a certificate from the test
// PKI, and returns its URL. Every token it issues chains to the test
// root. The caller finds openssl, so it decides what a missing one means.
func (p *PKI) StartTSA(t testing.TB, openssl string) string {
	t.Helper()
	tsa := p.Leaf(t, Options{Name: "Throwaway Test TSA", UnknownEKU: []asn1.ObjectIdentifier{oidTimeStamping}})
	dir := t.TempDir()
	files := tsa.Write(t, dir)
	cert := filepath.Join(dir, "tsa.pem")
	writeFile(t, cert, PEM(tsa.Cert))
	intermediate := filepath.Join(dir, "intermediate.pem")
	writeFile(t, intermediate, PEM(p.Intermediate))
	serial := filepath.Join(dir, "serial")
	writeFile(t, serial, []byte("01\n"))
	conf := filepath.Join(dir, "tsa.cnf")
	writeFile(t, conf, []byte(strings.ReplaceAll(tsaConfig, "%SERIAL%", serial)))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		query, err := os.CreateTemp(dir, "q-*.tsq")
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		io.Copy(query, io.LimitReader(r.Body, 1<<16))
		query.Close()
		reply := query.Name() + ".tsr"
		cmd := exec.Command(openssl, "ts", "-reply", "-config", conf, "-queryfile", query.Name(),
			"-signer", cert, "-inkey", files.Key, "-chain", intermediate, "-out", reply)
		if out, err := cmd.CombinedOutput(); err != nil {
			http.Error(w, string(out), http.StatusInternalServerError)
			return
		}
		body, _ := os.ReadFile(reply)
		w.Header().Set("Content-Type", "application/timestamp-reply")
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}
