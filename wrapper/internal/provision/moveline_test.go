//go:build unix

package provision

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/internal/settings"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/platform"
)

// testUID is the other line's resolver uid in these tests.
const testUID = "a1b2c3d4e5uid"

// movingOS is Linux with another line's service installed: it writes
// every step of the move to the same log the sh ctrld writes its calls
// to, so the order of both is recorded.
type movingOS struct {
	platform.Linux
	other     platform.Other
	log       string
	removeErr error
	// clobber, when set, is rewritten during the removal, as this
	// line's start rewrites the configuration both lines share.
	clobber string
}

func (m *movingOS) note(what string) {
	f, _ := os.OpenFile(m.log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	defer f.Close()
	f.WriteString(what + "\n")
}

func (m *movingOS) OtherLine(svc platform.Service, line string) (platform.Other, bool) {
	return m.other, line == m.other.Name && svc.Name != line
}

func (m *movingOS) RemoveOther(_ context.Context, o *platform.Other) error {
	m.note("remove " + o.Name)
	if m.clobber != "" {
		os.WriteFile(m.clobber, []byte("this line's config"), 0o600)
	}
	return m.removeErr
}

func (m *movingOS) RestoreOther(_ context.Context, o platform.Other) error {
	m.note("restore " + o.Name)
	return nil
}

// moveMachine is a folder holding our ctrld-client, an sh ctrld that
// exits startExit for start, beside our v1 ctrld, whose service the OS
// reports installed with uid.
func moveMachine(t *testing.T, startExit int, uid string) (*movingOS, string) {
	t.Helper()
	dir := t.TempDir()
	client, log := filepath.Join(dir, names.CtrldClient), filepath.Join(dir, "calls")
	script := "#!/bin/sh\necho \"$@\" >> " + log + "\ncase \"$1\" in\nstart) exit " + strconv.Itoa(startExit) + ";;\nesac\nexit 0\n"
	if err := os.WriteFile(client, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	v1 := filepath.Join(dir, names.Ctrld)
	os.WriteFile(v1, []byte("v1"), 0o755)
	other := platform.Other{Service: platform.Service{Name: names.Ctrld, Ctrld: v1}, UID: uid, Binary: v1}
	return &movingOS{other: other, log: log}, client
}

func steps(t *testing.T, m *movingOS) string {
	t.Helper()
	data, _ := os.ReadFile(m.log)
	return strings.ReplaceAll(strings.TrimSpace(string(data)), "\n", "; ")
}

// noUIDIn checks the uid and the canary reached no warning, no line and
// no file of the home folder.
func noUIDIn(t *testing.T, p *Provisioner, w *warnings) {
	t.Helper()
	all := strings.Join(*w, "\n")
	for _, secret := range []string{testUID, testenv.Canary} {
		if strings.Contains(all, secret) {
			t.Errorf("%q in the log: %q", secret, all)
		}
	}
	if files := testenv.FilesWithCanary(p.Config.Home); len(files) > 0 {
		t.Errorf("canary in %q", files)
	}
	if files := testenv.FilesWithPartOf(p.Config.Home, testUID); len(files) > 0 {
		t.Errorf("uid in %q", files)
	}
}

func TestMoveStartsWithTheOtherLinesUID(t *testing.T) {
	m, client := moveMachine(t, 0, testUID)
	p, w := newProvisioner(t, client, m, nil, settings.Settings{})
	o := p.Run(context.Background())
	if !o.OK {
		t.Fatalf("got %q", o.Line())
	}
	if got, want := steps(t, m), "remove ctrld; start --cd="+testUID+"; status"; got != want {
		t.Fatalf("steps %q, want %q", got, want)
	}
	if _, err := os.Stat(m.other.Binary); err == nil {
		t.Error("our v1 binary is still there after the move")
	}
	noUIDIn(t, p, w)
}

func TestMoveStartsWithTheTokenWhenOneIsSet(t *testing.T) {
	m, client := moveMachine(t, 0, testUID)
	p, w := newProvisioner(t, client, m, nil, settings.Settings{settings.ProvisionToken: testenv.Canary})
	if o := p.Run(context.Background()); !o.OK || strings.Contains(o.Line(), testenv.Canary) {
		t.Fatalf("got %q", o.Line())
	}
	if got, want := steps(t, m), "remove ctrld; start --cd-org="+testenv.Canary+"; status"; got != want {
		t.Fatalf("steps %q, want %q", got, want)
	}
	noUIDIn(t, p, w)
}

// A client that does not start leaves the device to v1 again: its
// service put back and started, its binary kept, and the line names the
// client's failure.
func TestFailedMovePutsTheOtherLineBack(t *testing.T) {
	m, client := moveMachine(t, 1, testUID)
	p, w := newProvisioner(t, client, m, nil, settings.Settings{settings.ProvisionToken: testenv.Canary})
	m.clobber = filepath.Join(p.Config.Home, names.CtrldConfig)
	os.WriteFile(m.clobber, []byte("v1's config"), 0o644)
	o := p.Run(context.Background())
	if o.OK || o.Exit() != 64 {
		t.Fatalf("got %q, want the client's failure", o.Line())
	}
	if got, want := steps(t, m), "remove ctrld; start --cd-org="+testenv.Canary+"; restore ctrld"; got != want {
		t.Fatalf("steps %q, want %q", got, want)
	}
	if _, err := os.Stat(m.other.Binary); err != nil {
		t.Errorf("v1's binary went with the failed move: %v", err)
	}
	if strings.Contains(o.Line(), testUID) {
		t.Errorf("uid in the line %q", o.Line())
	}
	if data, _ := os.ReadFile(m.clobber); string(data) != "v1's config" {
		t.Errorf("v1 put back with the config %q", data)
	}
	noUIDIn(t, p, w)
}

// The other line is never left running beside this one: when it cannot
// be removed, this line is not started.
func TestOtherLineLeftIsNotJoined(t *testing.T) {
	m, client := moveMachine(t, 0, testUID)
	m.removeErr = platform.ErrOtherLeft
	p, w := newProvisioner(t, client, m, nil, settings.Settings{})
	if o := p.Run(context.Background()); o.Exit() != 51 {
		t.Fatalf("got %q", o.Line())
	}
	if got, want := steps(t, m), "remove ctrld; restore ctrld"; got != want {
		t.Fatalf("steps %q, want %q", got, want)
	}
	noUIDIn(t, p, w)
}

// Without a token or a uid to start with, start could not run: the other
// line is left as it is.
func TestMoveWithNothingToStartWithChangesNothing(t *testing.T) {
	m, client := moveMachine(t, 0, "")
	p, _ := newProvisioner(t, client, m, nil, settings.Settings{})
	if o := p.Run(context.Background()); o.Exit() != 61 {
		t.Fatalf("got %q", o.Line())
	}
	if got := steps(t, m); got != "" {
		t.Fatalf("steps %q, want none", got)
	}
	if _, err := os.Stat(m.other.Binary); err != nil {
		t.Errorf("v1's binary went: %v", err)
	}
}

// Going back is the same move: v1's ctrld over the client line.
func TestMoveBackToTheFirstLine(t *testing.T) {
	m, client := moveMachine(t, 0, testUID)
	v1 := filepath.Join(filepath.Dir(client), names.Ctrld)
	os.Rename(client, v1)
	os.WriteFile(client, []byte("client"), 0o755)
	m.other = platform.Other{Service: platform.Service{Name: names.CtrldClient, Ctrld: client}, UID: testUID, Binary: client}
	p, _ := newProvisioner(t, v1, m, nil, settings.Settings{})
	if o := p.Run(context.Background()); !o.OK {
		t.Fatalf("got %q", o.Line())
	}
	if got, want := steps(t, m), "remove ctrld-client; start --cd="+testUID+"; status"; got != want {
		t.Fatalf("steps %q, want %q", got, want)
	}
	if _, err := os.Stat(client); err == nil {
		t.Error("our client binary is still there after the move back")
	}
}

// A package script starts the move even with no token: the uid is enough.
func TestHasWorkWhenAnotherLineHasAUID(t *testing.T) {
	for uid, want := range map[string]bool{testUID: true, "": false} {
		m, client := moveMachine(t, 0, uid)
		p, _ := newProvisioner(t, client, m, nil, settings.Settings{})
		if got, err := p.HasWork(context.Background()); err != nil || got != want {
			t.Errorf("uid %q: HasWork = %v, %v; want %v", uid, got, err, want)
		}
	}
}
