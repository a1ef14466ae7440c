package preflight

import (
	"context"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/codes"
	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/platform"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/provision"
)

// unitsHere is Linux with its systemd units and init scripts under one
// folder of the test's.
type unitsHere struct {
	platform.Linux
	dir string
}

func newUnitsHere(t *testing.T) unitsHere {
	dir := t.TempDir()
	return unitsHere{Linux: platform.Linux{Paths: platform.LinuxPaths{Etc: dir}}, dir: dir}
}

func (u unitsHere) ServiceFiles(name string) []string {
	return []string{filepath.Join(u.dir, "systemd/system", name+".service"), filepath.Join(u.dir, "init.d", name)}
}

// lay writes a service definition file of unitsHere.
func (u unitsHere) lay(t *testing.T, file string) {
	t.Helper()
	path := filepath.Join(u.dir, file)
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, []byte("[Service]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func provisionerFor(osys platform.OS, ctrld, home string) *provision.Provisioner {
	return &provision.Provisioner{Config: provision.Config{Ctrld: ctrld, Home: home}, OS: osys, Log: discardLog{}}
}

// A ctrld.service unit while start would run ctrld-client, and the
// reverse (an init script of ctrld-client while it would run ctrld):
// the other line's service is named, with its display name, as a
// warning naming the code start gives when it cannot remove it (start
// moves the device off it otherwise); our own line's is not.
func TestBesideNamesTheOtherLinesService(t *testing.T) {
	for _, tc := range []struct{ ours, file, other string }{
		{names.CtrldClient, "systemd/system/ctrld.service", names.Ctrld},
		{names.Ctrld, "init.d/ctrld-client", names.CtrldClient},
	} {
		u := newUnitsHere(t)
		u.lay(t, tc.file)
		u.lay(t, "systemd/system/"+tc.ours+".service")
		checks := besideChecks(provisionerFor(u, "/usr/bin/"+tc.ours, names.Home))
		if len(checks) != 1 {
			t.Fatalf("%s beside %s: %+v", tc.other, tc.ours, checks)
		}
		c := checks[0]
		if c.Name != "ctrld service "+tc.other || c.OK || c.Fails() {
			t.Errorf("%s beside %s: %+v", tc.other, tc.ours, c)
		}
		if !strings.Contains(c.Detail, names.LineOf(tc.other).DisplayName) || !strings.Contains(c.Detail, "port 53") ||
			!strings.Contains(c.Detail, "removes it") || !strings.Contains(c.Detail, "SERVICE_INSTALL_FAILED (exit 51)") {
			t.Errorf("detail %q", c.Detail)
		}
	}
	alone := newUnitsHere(t)
	alone.lay(t, "systemd/system/ctrld.service")
	if checks := besideChecks(provisionerFor(alone, "/usr/bin/ctrld", names.Home)); len(checks) != 0 {
		t.Errorf("our own service named: %+v", checks)
	}
}

// holdersOf answers as the OS would with one holder per protocol.
func holdersOf(byProto map[string]Holder) HolderFinder {
	return func(_ context.Context, proto string, port int) ([]Holder, error) {
		if h, ok := byProto[proto]; ok && port == 53 {
			return []Holder{h}, nil
		}
		return nil, nil
	}
}

// A ctrld daemon of either line holding port 53 is named with the
// listener's code: LISTENER_BIND_FAILED when no address binds, a
// warning when ctrld falls back; another program is the listener
// checks' business alone.
func TestPortChecksNameACtrldDaemon(t *testing.T) {
	holders := holdersOf(map[string]Holder{UDP: {PID: 7, Name: names.CtrldClient}, TCP: {PID: 8, Name: "dnsmasq"}})
	addrs := []string{"0.0.0.0:53", "127.0.0.1:53"}
	failing := []Check{fail("listener udp 0.0.0.0:53", codes.ListenerBindFailed, "address already in use")}
	checks := portChecks(context.Background(), addrs, holders, failing)
	if len(checks) != 1 {
		t.Fatalf("checks %+v", checks)
	}
	if c := checks[0]; c.Name != "ctrld on udp port 53" || c.Code != codes.ListenerBindFailed ||
		!strings.Contains(c.Detail, "ctrld-client (pid 7), the ctrld-client service's daemon") {
		t.Errorf("check %+v", c)
	}
	fallback := []Check{pass("listener udp 127.0.0.1:53", "bindable")}
	if c := portChecks(context.Background(), addrs, holders, fallback); len(c) != 1 || c[0].Fails() {
		t.Errorf("with a fallback: %+v", c)
	}
	if c := portChecks(context.Background(), addrs, holdersOf(map[string]Holder{UDP: {PID: 9, Name: "systemd-resolve"}}), failing); len(c) != 0 {
		t.Errorf("another program named as ctrld: %+v", c)
	}
}

// On start's fresh path the other line's service and a ctrld holding
// the port come before the listener checks, so the collision is what
// preflight names when the listener would fail.
func TestRunNamesTheCollisionBeforeTheListener(t *testing.T) {
	u := newUnitsHere(t)
	u.lay(t, "systemd/system/ctrld.service")
	held, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	addr := held.LocalAddr().String()
	_, port, _ := net.SplitHostPort(addr)
	holders := func(_ context.Context, proto string, p int) ([]Holder, error) {
		if proto == UDP && port == strconv.Itoa(p) {
			return []Holder{{PID: 7, Name: names.Ctrld}}, nil
		}
		return nil, nil
	}
	p := provisionerFor(u, filepath.Join(t.TempDir(), names.CtrldClient), filepath.Join(t.TempDir(), "home"))
	api := API{URL: &url.URL{Scheme: "https", Host: "127.0.0.1:1"}, Resolver: noDNS, Step: time.Second}
	r := Run(context.Background(), Options{Start: p, Warnings: func() []string { return nil }, Listen: []string{addr}, Holders: holders, API: api, Now: time.Now})
	names := make([]string, len(r.Checks))
	for i, c := range r.Checks {
		names[i] = c.Name
	}
	beside, port53, listener := slices.Index(names, "ctrld service ctrld"), slices.Index(names, "ctrld on udp port "+port), slices.Index(names, "listener udp "+addr)
	if beside < 0 || port53 < 0 || listener < 0 || !(beside < port53 && port53 < listener) {
		t.Fatalf("checks in order %q", names)
	}
	if c := r.Checks[port53]; c.Code != codes.ListenerBindFailed {
		t.Errorf("port check %+v", c)
	}
}
