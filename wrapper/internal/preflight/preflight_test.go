package preflight

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/wrapper/codes"
)

// The first failing check decides, in the order of the checks; a
// warning decides nothing.
func TestOutcomeFirstFailureInOrder(t *testing.T) {
	r := Result{Checks: []Check{
		pass("lock", ""),
		warn("api-dns", "no name"),
		fail("api-tcp", codes.APIUnreachable, ""),
		fail("listener udp 0.0.0.0:53", codes.ListenerBindFailed, ""),
	}}
	if o := r.Outcome(); o.Code != codes.APIUnreachable {
		t.Errorf("outcome %v", o)
	}
	if got := Line(r.Outcome()); got != "preflight: would fail: stage=bootstrap code=API_UNREACHABLE (exit 30)" {
		t.Errorf("line %q", got)
	}
	if got := Line(Result{Checks: []Check{warn("api-dns", "")}}.Outcome()); got != "preflight: ready (exit 0)" {
		t.Errorf("line %q", got)
	}
}

func TestResultJSON(t *testing.T) {
	r := Result{Checks: []Check{pass("lock", "free"), fail("listener tcp 0.0.0.0:53", codes.ListenerBindFailed, "held by dnsmasq (pid 7)")}}
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"result":"would-fail","stage":"listener","code":"LISTENER_BIND_FAILED","exit":41,"checks":[` +
		`{"name":"lock","ok":true,"code":"","detail":"free"},` +
		`{"name":"listener tcp 0.0.0.0:53","ok":false,"code":"LISTENER_BIND_FAILED","detail":"held by dnsmasq (pid 7)"}]}`
	if string(data) != want {
		t.Errorf("got  %s\nwant %s", data, want)
	}
	ready, _ := json.Marshal(Result{Checks: []Check{pass("lock", "")}})
	if !strings.HasPrefix(string(ready), `{"result":"ready","exit":0,`) {
		t.Errorf("%s", ready)
	}
}
