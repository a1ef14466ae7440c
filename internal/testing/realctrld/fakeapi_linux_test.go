package realctrld

import (
	"crypto/tls"
	"encoding/base64"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// Control D's fixed addresses, as ctrld v1.5.0 uses them: the API's
// fallback IP and the DoH upstream's bootstrap IPs (also the network
// probe's targets).
var (
	apiAddr  = "147.185.34.1"
	dohAddrs = []string{"76.76.2.22", "76.76.2.11"}
)

// deviceUID is the resolver uid the fake API hands out.
const deviceUID = "realtestuid01"

// systemTrust is the trust store ctrld's TLS checks on Linux.
const systemTrust = "/etc/ssl/certs/ca-certificates.crt"

// apiMode is how the fake API answers a provisioning token.
type apiMode int

const (
	apiAccepts apiMode = iota // 200 with a resolver
	apiRejects                // 400 Invalid provisioning token
)

// fakeAPI is Control D's utility API and DoH resolver, served on the
// fixed addresses bound to lo, with a throwaway CA the namespace trusts.
type fakeAPI struct {
	token    string
	mu       sync.Mutex
	mode     apiMode
	requests []apiRequest
	servers  []*http.Server
}

// startAPI adds the fixed addresses to lo, trusts a fresh CA and serves
// the API and DoH on port 443. token is the provisioning token it
// accepts.
func (b *box) startAPI(token string, mode apiMode) *fakeAPI {
	for _, addr := range append([]string{apiAddr}, dohAddrs...) {
		b.must("/usr/sbin/ip", "addr", "add", addr+"/32", "dev", "lo")
	}
	cert, caPEM, err := throwawayCert()
	if err != nil {
		b.fail("certificate: %v", err)
	}
	f, err := os.OpenFile(systemTrust, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		b.fail("trust store: %v", err)
	}
	f.Write(caPEM)
	f.Close()
	api := &fakeAPI{token: token, mode: mode}
	for _, addr := range append([]string{apiAddr}, dohAddrs...) {
		ln, err := net.Listen("tcp", addr+":443")
		if err != nil {
			b.fail("listen %s: %v", addr, err)
		}
		srv := &http.Server{Handler: api, TLSConfig: &tls.Config{Certificates: []tls.Certificate{cert}}, ReadHeaderTimeout: 5 * time.Second}
		api.servers = append(api.servers, srv)
		go srv.ServeTLS(ln, "", "")
	}
	b.api = api
	return api
}

// offline takes the fixed addresses off lo: the machine has no network.
func (b *box) offline() {
	for _, addr := range append([]string{apiAddr}, dohAddrs...) {
		b.must("/usr/sbin/ip", "addr", "del", addr+"/32", "dev", "lo")
	}
}

// setMode changes how later provisioning requests are answered.
func (a *fakeAPI) setMode(m apiMode) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.mode = m
}

// recorded lists what was asked so far.
func (a *fakeAPI) recorded() []apiRequest {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]apiRequest(nil), a.requests...)
}

func (a *fakeAPI) record(r apiRequest) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.requests = append(a.requests, r)
}

func (a *fakeAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/utility" {
		a.utility(w, r)
		return
	}
	a.doh(w, r)
}

func (a *fakeAPI) utility(w http.ResponseWriter, r *http.Request) {
	var req struct {
		ProvToken string `json:"prov_token"`
		UID       string `json:"uid"`
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<10))
	json.Unmarshal(body, &req)
	a.mu.Lock()
	mode := a.mode
	a.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	switch {
	case req.ProvToken != "":
		match := req.ProvToken == a.token
		status := http.StatusOK
		if !match || mode == apiRejects {
			status = http.StatusBadRequest
		}
		a.record(apiRequest{Kind: "prov_token", TokenMatch: match, Status: status})
		if status != http.StatusOK {
			w.WriteHeader(status)
			io.WriteString(w, `{"error":{"message":"Invalid provisioning token","code":40001}}`)
			return
		}
		writeResolver(w)
	case req.UID == deviceUID:
		a.record(apiRequest{Kind: "uid", Status: http.StatusOK})
		writeResolver(w)
	default:
		a.record(apiRequest{Kind: "uid", Status: http.StatusNotFound})
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"error":{"message":"device not found","code":40402}}`)
	}
}

func writeResolver(w http.ResponseWriter) {
	resolver := map[string]any{
		"uid": deviceUID, "doh": "https://dns.controld.com/" + deviceUID, "exclude": []string{},
		"ctrld": map[string]any{"custom_config": "", "custom_last_update": 0, "version_target": ""},
	}
	json.NewEncoder(w).Encode(map[string]any{"success": true, "body": map[string]any{"resolver": resolver}})
}

// doh answers RFC 8484 queries (GET ?dns= or POST) with an A record.
func (a *fakeAPI) doh(w http.ResponseWriter, r *http.Request) {
	var query []byte
	if r.Method == http.MethodPost {
		query, _ = io.ReadAll(io.LimitReader(r.Body, 4096))
	} else {
		query, _ = base64.RawURLEncoding.DecodeString(strings.TrimRight(r.URL.Query().Get("dns"), "="))
	}
	answer, ok := answerA(query, net.ParseIP(apiAddr).To4())
	if !ok {
		a.record(apiRequest{Kind: "doh", Status: http.StatusBadRequest})
		http.Error(w, "bad query", http.StatusBadRequest)
		return
	}
	a.record(apiRequest{Kind: "doh", Status: http.StatusOK})
	w.Header().Set("Content-Type", "application/dns-message")
	w.Write(answer)
}

// answerA builds the response to a one-question DNS query: the question
// echoed and, for an A question, one A record.
func answerA(q []byte, ip net.IP) ([]byte, bool) {
	if len(q) < 12 || q[4] != 0 || q[5] != 1 {
		return nil, false
	}
	end := 12
	for end < len(q) && q[end] != 0 {
		end += int(q[end]) + 1
	}
	end++ // the root label
	if end+4 > len(q) {
		return nil, false
	}
	question := q[12 : end+4]
	qtype := int(q[end])<<8 | int(q[end+1])
	resp := []byte{q[0], q[1], 0x81, 0x80, 0, 1, 0, 0, 0, 0, 0, 0}
	resp = append(resp, question...)
	if qtype == 1 {
		resp[7] = 1
		resp = append(resp, 0xc0, 12, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4)
		resp = append(resp, ip...)
	}
	return resp, true
}

// throwawayCert makes a CA and a server certificate for every name and
// address the fake serves.
func throwawayCert() (tls.Certificate, []byte, error) {
	var ips []net.IP
	for _, addr := range append([]string{apiAddr}, dohAddrs...) {
		ips = append(ips, net.ParseIP(addr))
	}
	return testenv.ThrowawayCert("realctrld throwaway CA", []string{"api.controld.com", "dns.controld.com", "freedns.controld.com"}, ips)
}
