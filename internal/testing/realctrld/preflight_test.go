//go:build linux

package realctrld

import (
	"encoding/json"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// The preflight scenarios: in each, preflight runs first, then the real
// ctrld through the wrapper's start in the same namespace, and the test
// holds the prediction against what start then reported. v1.5.0 has no
// stable codes: where it fails, the wrapper reports CTRLD_UNIDENTIFIED or
// CTRLD_TIMEOUT, and the test asks ctrld's own output which stage it
// failed in.
func init() {
	scenarios["preflight-ready"] = preflightReady
	scenarios["preflight-port-held"] = preflightPortHeld
	scenarios["preflight-port-partly-held"] = preflightPortPartlyHeld
	scenarios["preflight-no-network"] = preflightNoNetwork
	scenarios["preflight-nowhere"] = preflightNowhere
	scenarios["preflight-malformed-token"] = preflightMalformedToken
}

// preflightJSON is what `preflight --json` prints.
type preflightJSON struct {
	Result string `json:"result"`
	Code   string `json:"code"`
	Exit   int    `json:"exit"`
	Checks []struct {
		Name   string `json:"name"`
		OK     bool   `json:"ok"`
		Code   string `json:"code"`
		Detail string `json:"detail"`
	} `json:"checks"`
}

// runPreflight runs preflight with env, then snapshots what it must not
// have changed.
func runPreflight(b *box, env []string) {
	b.snapshot("resolv-before", resolvConf)
	b.run("preflight", quick, env, wrapperBin, "preflight", "--json")
	b.snapshot("after-preflight", footprint...)
	b.snapshot("resolv-after", resolvConf)
}

// A fresh install that works: the fake API accepts the token.
func preflightReady(b *box) {
	installBinaries(b)
	api := b.startAPI(testenv.Canary, apiAccepts)
	runPreflight(b, tokenEnv)
	b.write("/tmp/api-after-preflight", 0o600, apiKinds(api))
	b.snapshot("api-after-preflight", "/tmp/api-after-preflight")
	b.run("wrapper start", slow, tokenEnv, wrapperBin, "start")
}

func apiKinds(api *fakeAPI) string {
	var kinds []string
	for _, r := range api.recorded() {
		kinds = append(kinds, r.Kind)
	}
	return strings.Join(kinds, " ")
}

// Another process holds port 53 on every address, UDP and TCP: this
// scenario's own process.
func preflightPortHeld(b *box) {
	portHeldThenStart(b, "0.0.0.0")
	b.runSecret("ctrld start", slow, nil, ctrldBin, "start", "--cd-org="+testenv.Canary)
}

// Another process holds port 53 on one loopback address only, as
// systemd-resolved does on 127.0.0.53: every address cannot be bound,
// loopback can, and ctrld falls back to it.
func preflightPortPartlyHeld(b *box) { portHeldThenStart(b, "127.0.0.53") }

// portHeldThenStart holds port 53 on ip, with the fake API up, and runs
// preflight, then start.
func portHeldThenStart(b *box, ip string) {
	installBinaries(b)
	b.startAPI(testenv.Canary, apiAccepts)
	holdPort53(b, ip)
	runPreflight(b, tokenEnv)
	b.run("wrapper start", slow, tokenEnv, wrapperBin, "start")
}

// heldPorts keeps the sockets holding port 53 open until the scenario's
// process ends.
var heldPorts []io.Closer

// holdPort53 binds UDP and TCP port 53 on ip in this process and notes
// its pid in holderFile.
func holdPort53(b *box, ip string) {
	addr := net.JoinHostPort(ip, "53")
	udp, err := net.ListenPacket("udp", addr)
	if err != nil {
		b.fail("hold udp %s: %v", addr, err)
	}
	tcp, err := net.Listen("tcp", addr)
	if err != nil {
		b.fail("hold tcp %s: %v", addr, err)
	}
	heldPorts = append(heldPorts, udp, tcp)
	b.write(holderFile, 0o600, strconv.Itoa(os.Getpid()))
	b.snapshot("holder", holderFile)
}

// holderFile holds the pid of the process holding port 53.
const holderFile = "/tmp/port-53-holder"

// No network at all: only lo, no address of the API on it.
func preflightNoNetwork(b *box) {
	installBinaries(b)
	runPreflight(b, tokenEnv)
	b.run("wrapper start", quick, tokenEnv, wrapperBin, "start")
	b.runSecret("ctrld start", quick, nil, ctrldBin, "start", "--cd-org="+testenv.Canary)
}

// A route that goes nowhere: every packet dropped. start keeps its
// default bound, so ctrld gives up by itself.
func preflightNowhere(b *box) {
	installBinaries(b)
	b.must("/usr/sbin/ip", "route", "add", "default", "dev", "lo")
	runPreflight(b, tokenEnv)
	b.run("wrapper start", slow, tokenEnv, wrapperBin, "start")
	b.runSecret("ctrld start", quick, nil, ctrldBin, "start", "--cd-org="+testenv.Canary)
}

// malformedToken has a quote in it: ctrld's input check refuses it, the
// API would too.
var malformedToken = testenv.Canary + `"`

func preflightMalformedToken(b *box) {
	installBinaries(b)
	b.startAPI(testenv.Canary, apiAccepts)
	env := []string{names.TokenEnv + "=" + malformedToken}
	runPreflight(b, env)
	b.run("wrapper start", quick, env, wrapperBin, "start")
	b.runSecret("ctrld start", quick, nil, ctrldBin, "start", "--cd-org="+malformedToken)
}

// judgePreflight runs a preflight scenario and returns preflight's
// answer and start's step, having checked that preflight kept its own
// contract: valid JSON, the exit it names, nothing on stderr, nothing
// changed. It runs with the first real ctrld named: preflight judges the
// device, not the ctrld version.
func judgePreflight(t *testing.T, name string, limit time.Duration) (preflightJSON, stepResult, *report) {
	t.Helper()
	r := runScenario(t, ctrldBinaries(t)[0], name, limit)
	if r.Error != "" {
		t.Fatalf("scenario: %s", r.Error)
	}
	pf := step(t, r, "preflight")
	var got preflightJSON
	if err := json.Unmarshal([]byte(pf.Stdout), &got); err != nil {
		t.Fatalf("preflight --json: %v\n%s", err, pf.Stdout)
	}
	if pf.Exit != got.Exit || pf.Stderr != "" {
		t.Errorf("preflight: exit %d, JSON exit %d, stderr %q", pf.Exit, got.Exit, pf.Stderr)
	}
	if pf.Duration > 20*time.Second {
		t.Errorf("preflight took %s, over its 15 s bound", pf.Duration)
	}
	wantNothingLeft(t, r, "after-preflight")
	before, _ := r.snapshotNamed("resolv-before")
	after, _ := r.snapshotNamed("resolv-after")
	if b, a := before.file(resolvConf), after.file(resolvConf); a.Content != b.Content || a.Mode != b.Mode {
		t.Errorf("preflight changed resolv.conf: %q -> %q", b.Content, a.Content)
	}
	for _, c := range got.Checks {
		t.Logf("  %-28s ok=%-5v %-24s %s", c.Name, c.OK, c.Code, c.Detail)
	}
	st := step(t, r, "wrapper start")
	t.Logf("TABLE | %s | preflight: %s %s (exit %d) | start: exit %d %s", name, got.Result, got.Code, got.Exit, st.Exit, strings.TrimSpace(st.Stdout))
	return got, st, r
}

func failingCheck(p preflightJSON, prefix string) (detail string, ok bool) {
	for _, c := range p.Checks {
		if strings.HasPrefix(c.Name, prefix) && !c.OK && c.Code != "" {
			return c.Detail, true
		}
	}
	return "", false
}

func TestPreflightReadyThenStartSucceeds(t *testing.T) {
	t.Parallel()
	got, st, r := judgePreflight(t, "preflight-ready", 6*time.Minute)
	if got.Result != "ready" || got.Exit != 0 {
		t.Errorf("preflight predicted %s %s", got.Result, got.Code)
	}
	wantOneLine(t, st, lineComplete, 0)
	snap, _ := r.snapshotNamed("api-after-preflight")
	if kinds := snap.file("/tmp/api-after-preflight").Content; strings.Contains(kinds, "prov_token") || strings.Contains(kinds, "uid") {
		t.Errorf("preflight provisioned: the API saw %q", kinds)
	}
}

func TestPreflightPortHeldThenStart(t *testing.T) {
	t.Parallel()
	got, st, r := judgePreflight(t, "preflight-port-held", 6*time.Minute)
	detail, ok := failingCheck(got, "listener udp 0.0.0.0:53")
	if got.Code != "LISTENER_BIND_FAILED" || got.Exit != 41 || !ok {
		t.Fatalf("preflight predicted %s (exit %d)", got.Code, got.Exit)
	}
	snap, _ := r.snapshotNamed("holder")
	pid := snap.file(holderFile).Content
	if !strings.Contains(detail, "address already in use; held by ") || !strings.HasSuffix(detail, " (pid "+pid+")") {
		t.Errorf("the holder, pid %s, is not named: %q", pid, detail)
	}
	wantOneLine(t, st, lineUnidentified, 64)
	ctrld := step(t, r, "ctrld start")
	out := redact(ctrld.Stdout)
	if ctrld.Exit == 0 || !strings.Contains(out, "could not listen on 0.0.0.0:53") || !strings.Contains(out, "address already in use") {
		t.Errorf("ctrld start did not fail at its listener: exit %d\n%s", ctrld.Exit, out)
	}
	t.Logf("ctrld itself: exit %d after %.1fs\n%s", ctrld.Exit, ctrld.Duration.Seconds(), lastLines(out, 2))
}

func TestPreflightPortPartlyHeldThenStartSucceeds(t *testing.T) {
	t.Parallel()
	got, st, _ := judgePreflight(t, "preflight-port-partly-held", 6*time.Minute)
	detail, _ := warningCheck(got, "listener udp 0.0.0.0:53")
	if got.Result != "ready" || !strings.HasSuffix(detail, "; ctrld falls back to 127.0.0.1:53") {
		t.Errorf("preflight predicted %s %s; 0.0.0.0:53: %q", got.Result, got.Code, detail)
	}
	wantOneLine(t, st, lineComplete, 0)
}

func warningCheck(p preflightJSON, prefix string) (detail string, ok bool) {
	for _, c := range p.Checks {
		if strings.HasPrefix(c.Name, prefix) && !c.OK && c.Code == "" {
			return c.Detail, true
		}
	}
	return "", false
}

func TestPreflightNoNetworkThenStart(t *testing.T) {
	t.Parallel()
	wantAPIUnreachableAgreed(t, "preflight-no-network", 3*time.Minute, "network is unreachable")
}

func TestPreflightNowhereThenStart(t *testing.T) {
	t.Parallel()
	wantAPIUnreachableAgreed(t, "preflight-nowhere", 6*time.Minute, "timed out")
}

// wantAPIUnreachableAgreed checks a scenario where the API cannot be
// reached: preflight predicts API_UNREACHABLE for the reason given, and
// the real ctrld, run by start and by itself, fails where that code
// says: fetching its resolver from the API.
func wantAPIUnreachableAgreed(t *testing.T, name string, limit time.Duration, reason string) {
	t.Helper()
	got, st, r := judgePreflight(t, name, limit)
	detail, ok := failingCheck(got, "api-tcp")
	if got.Code != "API_UNREACHABLE" || !ok || !strings.Contains(detail, reason) {
		t.Errorf("preflight predicted %s: %q", got.Code, detail)
	}
	wantOneLine(t, st, lineUnidentified, 64)
	ctrld := step(t, r, "ctrld start")
	out := redact(ctrld.Stdout)
	if ctrld.Exit == 0 || !strings.Contains(out, "failed to fetch resolver uid with provision token") {
		t.Errorf("ctrld start: exit %d\n%s", ctrld.Exit, out)
	}
	t.Logf("ctrld itself: exit %d after %.1fs\n%s", ctrld.Exit, ctrld.Duration.Seconds(), lastLines(out, 2))
}

func TestPreflightMalformedTokenThenStart(t *testing.T) {
	t.Parallel()
	got, st, r := judgePreflight(t, "preflight-malformed-token", 3*time.Minute)
	if got.Code != "PROVISION_TOKEN_MALFORMED" || got.Exit != 21 {
		t.Errorf("preflight predicted %s (exit %d)", got.Code, got.Exit)
	}
	wantOneLine(t, st, "provisioning failed: stage=input code=PROVISION_TOKEN_MALFORMED (exit 21)", 21)
	if ctrld := step(t, r, "ctrld start"); ctrld.Exit == 0 {
		t.Errorf("the real ctrld took the malformed token: %s", redact(ctrld.Stdout))
	} else {
		t.Logf("ctrld itself, given the malformed token: exit %d\n%s", ctrld.Exit, lastLines(redact(ctrld.Stdout), 3))
	}
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
