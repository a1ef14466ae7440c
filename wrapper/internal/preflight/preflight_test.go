package preflight

import (
	"context"
	"encoding/json"
	"net"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/codes"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/platform"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/provision"
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

// serviceDirHere is Linux with its service files in one folder of the
// test's: a folder that exists, as /etc/init.d does.
type serviceDirHere struct {
	platform.Linux
	dir string
}

func (s serviceDirHere) ServiceFiles(name string) []string {
	return []string{filepath.Join(s.dir, name)}
}

// With no ctrld found (none beside the test binary, no --ctrld) and no
// service installed, preflight takes the fresh path and reports its
// checks; an empty service name must not match the service files'
// folder.
func TestNoCtrldIsNoUpgrade(t *testing.T) {
	work := t.TempDir()
	osys := serviceDirHere{dir: work}
	log := discardLog{}
	in := provision.Input{Home: filepath.Join(work, "home"), SettingsFile: filepath.Join(work, "none")}
	p := &provision.Provisioner{Config: provision.Resolve(in, osys, nil, log), OS: osys, Log: log}
	if p.Config.Ctrld != "" {
		t.Fatalf("the test needs no ctrld beside the test binary; found %s", p.Config.Ctrld)
	}
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed.Close()
	api := API{URL: &url.URL{Scheme: "https", Host: closed.Addr().String()}, Resolver: noDNS, Step: time.Second}
	r := Run(context.Background(), Options{Start: p, Warnings: func() []string { return nil }, Listen: []string{"127.0.0.1:0"}, API: api, Now: time.Now})
	got := byName(r.Checks)
	if c, ok := got["upgrade"]; ok {
		t.Fatalf("no ctrld and no service, yet: %+v", c)
	}
	if got["ctrld"].Code != codes.CtrldNotFound {
		t.Errorf("ctrld: %+v", got["ctrld"])
	}
	for _, name := range []string{"ProvisionToken", checkTCP, "listener udp 127.0.0.1:0"} {
		if _, ok := got[name]; !ok {
			t.Errorf("the fresh path's check %q is missing: %v", name, r.Checks)
		}
	}
	if o := r.Outcome(); o.Code != codes.CtrldNotFound {
		t.Errorf("outcome %v", o)
	}
}

// discardLog is a provision.Log that keeps nothing.
type discardLog struct{}

func (discardLog) Warn(string)          {}
func (discardLog) Result(codes.Outcome) {}
