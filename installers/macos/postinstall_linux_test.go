package macos

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"howett.net/plist"

	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
	"github.com/ctrld-install/ctrld-install/testdata/fakectrld/tokenhash"
)

// The postinstall shim, taken from a built package, runs under busybox sh
// in a chroot laid out like a Mac: /Library/ControlD holds the wrapper (its
// test main, a static Linux build given the macOS behaviour by
// simulateMac) and the fake ctrld; /bin/launchctl is a stand-in that logs
// its calls; managed preferences are real plist files where a profile
// puts them.

// simulateMac is the test main's debug seam for the macOS behaviour.
const simulateMac = "CTRLD_INSTALL_TEST_OS=darwin"

// simulatedBinaries builds the two binaries once for every test; the
// build takes no t, so no test's t outlives it.
var simulatedBinaries = sync.OnceValues(func() ([2]string, error) {
	dir := filepath.Join(shared.Dir, "mac-sim")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return [2]string{}, err
	}
	wrapper, err := goBuild(dir, names.Wrapper, "./wrapper/internal/testmain", "GOOS=linux", "CGO_ENABLED=0")
	if err != nil {
		return [2]string{}, err
	}
	ctrld, err := goBuild(dir, names.Ctrld, "./testdata/fakectrld", "GOOS=linux", "CGO_ENABLED=0")
	return [2]string{wrapper, ctrld}, err
})

// shippedPostinstall extracts the postinstall from the shared package
// with the project's own readers.
func shippedPostinstall(t *testing.T) []byte {
	t.Helper()
	r := openPkg(t, sharedUnsignedPkg(t))
	data, err := r.ReadFile("ctrld.pkg/Scripts")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range readCpioGz(t, data) {
		if e.h.Name == "./postinstall" {
			return e.data
		}
	}
	t.Fatal("no postinstall in Scripts")
	return nil
}

const (
	prefsPath  = names.ManagedPrefs
	daemonPath = names.LaunchDaemonsDir + "/" + names.Ctrld + ".plist"
	lastPath   = names.Home + "/" + names.LastResultFile
)

type macRoot struct {
	t    *testing.T
	root string
}

func newMacRoot(t *testing.T, script []byte) *macRoot {
	bins, err := simulatedBinaries()
	if err != nil {
		t.Fatal(err)
	}
	wrapper, ctrld := bins[0], bins[1]
	root := testenv.NewChroot(t, []string{"usr/local/bin", "Library/ControlD", "Library/LaunchDaemons", "Library/Managed Preferences", "etc"},
		"cat", "rm")
	m := &macRoot{t, root}
	m.copy(wrapper, InstallDir+"/"+names.Wrapper, 0o755)
	m.copy(ctrld, InstallDir+"/"+names.Ctrld, 0o755)
	m.write("/tmp/postinstall", script, 0o755)
	m.write("/bin/launchctl", launchctlStandIn, 0o755)
	return m
}

// launchctlStandIn logs its arguments and keeps one job's state in
// /tmp/launchctl.loaded: load sets it, unload and bootout clear it (unless
// /tmp/launchctl.stuck says the job will not go), list answers from it.
// "load" creates nothing: the plist is already there on an upgrade.
var launchctlStandIn = []byte(`#!/bin/sh
echo "$*" >> /tmp/launchctl.log
case $1 in
load) : >/tmp/launchctl.loaded ;;
unload | bootout) [ -e /tmp/launchctl.stuck ] || rm -f /tmp/launchctl.loaded ;;
list) [ -e /tmp/launchctl.loaded ] || exit 113 ;;
esac
exit 0
`)

func (m *macRoot) path(p string) string { return filepath.Join(m.root, p) }

func (m *macRoot) write(p string, data []byte, mode os.FileMode) {
	if err := os.WriteFile(m.path(p), data, mode); err != nil {
		m.t.Fatal(err)
	}
}

func (m *macRoot) copy(src, dst string, mode os.FileMode) {
	data, err := os.ReadFile(src)
	if err != nil {
		m.t.Fatal(err)
	}
	m.write(dst, data, mode)
}

func (m *macRoot) scenario(lines ...string) {
	base := []string{"home=" + names.Home, "service-file=" + daemonPath, "record=/tmp/ctrld-calls"}
	m.write(InstallDir+"/fake-ctrld.scenario", []byte(strings.Join(append(base, lines...), "\n")+"\n"), 0o644)
}

func (m *macRoot) prefs(format int, values map[string]any) {
	data, err := plist.Marshal(values, format)
	if err != nil {
		m.t.Fatal(err)
	}
	m.write(prefsPath, data, 0o644)
}

func (m *macRoot) read(p string) string {
	data, _ := os.ReadFile(m.path(p))
	return string(data)
}

// runRaw runs the script at /tmp/postinstall and returns its stdout,
// failing on any stderr.
func (m *macRoot) runRaw(env ...string) string {
	m.t.Helper()
	cmd := exec.Command("chroot", m.root, "/bin/sh", "/tmp/postinstall")
	cmd.Env = append([]string{"PATH=/usr/bin:/bin:/usr/sbin:/sbin", simulateMac}, env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil || stderr.Len() != 0 {
		m.t.Fatalf("%v, stderr %q", err, stderr.String())
	}
	return stdout.String()
}

// run runs the postinstall as Installer does and checks the contract: one
// line, the exit code it names, and no canary anywhere.
func (m *macRoot) run(wantExit int, env ...string) string {
	m.t.Helper()
	cmd := exec.Command("chroot", m.root, "/bin/sh", "/tmp/postinstall", "/tmp/ctrld.pkg", "/", "/", "/")
	cmd.Env = append([]string{"PATH=/usr/bin:/bin:/usr/sbin:/sbin", simulateMac}, env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	code, err := testenv.ExitCode(cmd.Run())
	if err != nil {
		m.t.Fatal(err)
	}
	out := stdout.String()
	if code != wantExit || strings.Count(out, "\n") != 1 || stderr.Len() != 0 {
		m.t.Fatalf("postinstall: exit %d (want %d)\nstdout %q\nstderr %q", code, wantExit, out, stderr.String())
	}
	if strings.Contains(out, testenv.Canary) {
		m.t.Fatal("canary token in the postinstall output")
	}
	m.noCanary()
	return strings.TrimSuffix(out, "\n")
}

func (m *macRoot) noCanary() {
	m.t.Helper()
	for _, f := range testenv.FilesWithCanary(m.root, m.path(prefsPath)) {
		m.t.Errorf("canary token in %s", strings.TrimPrefix(f, m.root))
	}
}

func TestPostinstallFreshInstall(t *testing.T) {
	t.Parallel()
	testenv.RequireTool(t, "chroot")
	script := shippedPostinstall(t)
	for name, format := range map[string]int{"binary": plist.BinaryFormat, "xml": plist.XMLFormat} {
		t.Run(name, func(t *testing.T) {
			m := newMacRoot(t, script)
			m.scenario("start.echo-token=1")
			m.prefs(format, map[string]any{"ProvisionToken": testenv.Canary, "CustomHostname": "mac-07", "InterceptMode": "intercept-dns", "UseDevEnvironment": true})
			if line := m.run(0); line != "provisioning complete (exit 0)" {
				t.Fatalf("line %q", line)
			}
			want := "start --cd-org=sha256:" + tokenhash.Of(testenv.Canary) + " --custom-hostname=mac-07 --intercept-mode dns --dev\n"
			if calls := m.read("/tmp/ctrld-calls"); !strings.HasPrefix(calls, want) || !strings.Contains(calls, "status\n") {
				t.Fatalf("ctrld calls %q", calls)
			}
			if m.read(lastPath) != "provisioning complete (exit 0)\n" {
				t.Fatal("last result not recorded")
			}
		})
	}
}

func TestPostinstallFailureCode(t *testing.T) {
	t.Parallel()
	testenv.RequireTool(t, "chroot")
	m := newMacRoot(t, shippedPostinstall(t))
	m.scenario("start.echo-token=1", "start.fail=listener,LISTENER_BIND_FAILED,41")
	m.prefs(plist.BinaryFormat, map[string]any{"ProvisionToken": testenv.Canary})
	if line := m.run(41); line != "provisioning failed: stage=listener code=LISTENER_BIND_FAILED (exit 41)" {
		t.Fatalf("line %q", line)
	}
}

func TestPostinstallUpgrade(t *testing.T) {
	t.Parallel()
	testenv.RequireTool(t, "chroot")
	script := shippedPostinstall(t)
	t.Run("no InterceptMode reloads through launchctl", func(t *testing.T) {
		m := newMacRoot(t, script)
		m.scenario()
		m.write(daemonPath, []byte("<plist/>"), 0o644)
		if line := m.run(0); line != "provisioning complete (exit 0)" {
			t.Fatalf("line %q", line)
		}
		if got := m.read("/tmp/launchctl.log"); got != "unload "+daemonPath+"\nload -w "+daemonPath+"\n" {
			t.Fatalf("launchctl calls %q", got)
		}
		if strings.Contains(m.read("/tmp/ctrld-calls"), "start") {
			t.Fatal("upgrade ran ctrld start")
		}
	})
	t.Run("InterceptMode restarts ctrld in that mode", func(t *testing.T) {
		m := newMacRoot(t, script)
		m.scenario()
		m.write(daemonPath, []byte("<plist/>"), 0o644)
		m.prefs(plist.XMLFormat, map[string]any{"InterceptMode": "standard", "ProvisionToken": testenv.Canary})
		m.run(0)
		if calls := m.read("/tmp/ctrld-calls"); !strings.HasPrefix(calls, "start --intercept-mode off\n") {
			t.Fatalf("ctrld calls %q", calls)
		}
	})
	t.Run("invalid InterceptMode only warns", func(t *testing.T) {
		m := newMacRoot(t, script)
		m.scenario()
		m.write(daemonPath, []byte("<plist/>"), 0o644)
		m.prefs(plist.BinaryFormat, map[string]any{"InterceptMode": "everything"})
		if line := m.run(0); line != "provisioning complete (exit 0)" {
			t.Fatalf("line %q", line)
		}
		if !strings.Contains(m.read("/tmp/launchctl.log"), "load -w") {
			t.Fatal("service not reloaded")
		}
	})
}

func TestPostinstallMissingProfile(t *testing.T) {
	t.Parallel()
	testenv.RequireTool(t, "chroot")
	m := newMacRoot(t, shippedPostinstall(t))
	m.scenario()
	start := time.Now()
	if line := m.run(61, "CTRLD_INSTALL_PREFS_WAIT=1s"); line != "provisioning failed: stage=package code=PROFILE_PREFS_MISSING (exit 61)" {
		t.Fatalf("line %q", line)
	}
	if time.Since(start) < time.Second {
		t.Fatal("did not wait for the profile")
	}
	if m.read("/tmp/ctrld-calls") != "" {
		t.Fatal("ctrld ran without a token")
	}
}

func TestPostinstallProfileArrivesDuringWait(t *testing.T) {
	t.Parallel()
	testenv.RequireTool(t, "chroot")
	m := newMacRoot(t, shippedPostinstall(t))
	m.scenario()
	go func() {
		time.Sleep(time.Second)
		data, _ := plist.Marshal(map[string]any{"ProvisionToken": testenv.Canary}, plist.BinaryFormat)
		os.WriteFile(m.path(prefsPath)+".tmp", data, 0o644)
		os.Rename(m.path(prefsPath)+".tmp", m.path(prefsPath))
	}()
	if line := m.run(0, "CTRLD_INSTALL_PREFS_WAIT=30s"); line != "provisioning complete (exit 0)" {
		t.Fatalf("line %q", line)
	}
}

// daemonPlist is the launchd job as ctrld writes it, for a binary at path.
func daemonPlist(path string) []byte {
	return []byte(`<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0"><dict>
	<key>Label</key><string>ctrld</string>
	<key>KeepAlive</key><true/>
	<key>ProgramArguments</key><array>
		<string>` + path + `</string>
		<string>run</string>
	</array>
</dict></plist>
`)
}

// job decodes the launchd plist at p, for comparing jobs whatever their
// layout.
func (m *macRoot) job(p string) map[string]any {
	m.t.Helper()
	var job map[string]any
	if _, err := plist.Unmarshal([]byte(m.read(p)), &job); err != nil {
		m.t.Fatalf("%s: %v", p, err)
	}
	return job
}

func sameJob(a, b map[string]any) bool {
	x, _ := plist.Marshal(a, plist.XMLFormat)
	y, _ := plist.Marshal(b, plist.XMLFormat)
	return bytes.Equal(x, y)
}

// legacyUpgrade lays out a Mac upgraded from a release in /usr/local/bin:
// its loaded KeepAlive job runs the old ctrld there.
func legacyUpgrade(t *testing.T) *macRoot {
	m := newMacRoot(t, shippedPostinstall(t))
	m.scenario()
	m.write(LegacyInstallDir+"/ctrld", []byte("old"), 0o755)
	m.write(LegacyInstallDir+"/ctrld-install", []byte("old"), 0o755)
	m.write(LegacyInstallDir+"/brew-tool", []byte("keep"), 0o755)
	m.write(daemonPath, daemonPlist(LegacyInstallDir+"/ctrld"), 0o644)
	m.write("/tmp/launchctl.loaded", nil, 0o644)
	return m
}

// An upgrade from a release that installed into /usr/local/bin unloads the
// job, confirms with launchd that it is gone, points it at the new place
// and removes the old, user-replaceable copies; the reload then starts the
// new binary.
func TestPostinstallUpgradeFromLegacyLocation(t *testing.T) {
	t.Parallel()
	testenv.RequireTool(t, "chroot")
	m := legacyUpgrade(t)
	if line := m.run(0); line != "provisioning complete (exit 0)" {
		t.Fatalf("line %q", line)
	}
	var want map[string]any
	plist.Unmarshal(daemonPlist(InstallDir+"/ctrld"), &want)
	if got := m.job(daemonPath); !sameJob(got, want) {
		t.Fatalf("launchd job not moved:\n%s", m.read(daemonPath))
	}
	calls := "unload " + daemonPath + "\nlist ctrld\nunload " + daemonPath + "\nload -w " + daemonPath + "\n"
	if got := m.read("/tmp/launchctl.log"); got != calls {
		t.Fatalf("launchctl calls %q, want %q", got, calls)
	}
	for _, gone := range []string{"/ctrld", "/ctrld-install"} {
		if _, err := os.Lstat(m.path(LegacyInstallDir + gone)); err == nil {
			t.Errorf("%s%s left behind", LegacyInstallDir, gone)
		}
	}
	if m.read(LegacyInstallDir+"/brew-tool") != "keep" {
		t.Error("removed a file that is not ours")
	}
	if info, err := os.Stat(m.path(daemonPath)); err != nil || info.Mode().Perm() != 0o644 {
		t.Errorf("launchd plist mode changed: %v", err)
	}
}

// A job launchd keeps loaded after unload and bootout is not moved, and its old
// binary stays: removing it would let a Homebrew owner put back a file
// the KeepAlive job then runs as root. The install fails with
// SERVICE_RELOAD_FAILED.
func TestPostinstallKeepsALegacyJobThatStaysLoaded(t *testing.T) {
	t.Parallel()
	testenv.RequireTool(t, "chroot")
	m := legacyUpgrade(t)
	m.write("/tmp/launchctl.stuck", nil, 0o644)
	if line := m.run(66); line != "provisioning failed: stage=package code=SERVICE_RELOAD_FAILED (exit 66)" {
		t.Fatalf("line %q", line)
	}
	if got := m.read(daemonPath); got != string(daemonPlist(LegacyInstallDir+"/ctrld")) {
		t.Fatalf("launchd job changed:\n%s", got)
	}
	for _, kept := range []string{"/ctrld", "/ctrld-install"} {
		if m.read(LegacyInstallDir+kept) != "old" {
			t.Errorf("%s%s removed under a loaded job", LegacyInstallDir, kept)
		}
	}
	if got := m.read("/tmp/launchctl.log"); got != "unload "+daemonPath+"\nlist ctrld\nbootout system/ctrld\nlist ctrld\n" {
		t.Fatalf("launchctl calls %q", got)
	}
	if m.read("/tmp/ctrld-calls") != "" {
		t.Fatal("ctrld ran")
	}
}

// A job that already runs from the new place is left as it is.
func TestPostinstallLeavesACurrentJobAlone(t *testing.T) {
	t.Parallel()
	testenv.RequireTool(t, "chroot")
	m := newMacRoot(t, shippedPostinstall(t))
	m.scenario()
	m.write(daemonPath, daemonPlist(InstallDir+"/ctrld"), 0o644)
	m.run(0)
	if got := m.read(daemonPath); got != string(daemonPlist(InstallDir+"/ctrld")) {
		t.Fatalf("launchd job changed:\n%s", got)
	}
}

// An upgrade finding a job named like ours that runs a ctrld from a
// user's folder never has launchd load it as root: the job is unloaded,
// pointed at the packaged binary and only then loaded; the user's file is
// not ours, and stays.
func TestPostinstallRepointsAJobOfAUsersCtrld(t *testing.T) {
	t.Parallel()
	testenv.RequireTool(t, "chroot")
	m := newMacRoot(t, shippedPostinstall(t))
	m.scenario()
	const users = "/Users/u"
	if err := os.MkdirAll(m.path(users), 0o755); err != nil {
		t.Fatal(err)
	}
	m.write(users+"/ctrld", []byte("theirs"), 0o755)
	for _, p := range []string{users, users + "/ctrld"} {
		if err := os.Chown(m.path(p), 65534, 65534); err != nil {
			t.Fatal(err)
		}
	}
	m.write(daemonPath, daemonPlist(users+"/ctrld"), 0o644)
	m.write("/tmp/launchctl.loaded", nil, 0o644)
	if line := m.run(0); line != "provisioning complete (exit 0)" {
		t.Fatalf("line %q", line)
	}
	var want map[string]any
	plist.Unmarshal(daemonPlist(InstallDir+"/ctrld"), &want)
	if got := m.job(daemonPath); !sameJob(got, want) {
		t.Fatalf("launchd job not pointed at the packaged binary:\n%s", m.read(daemonPath))
	}
	calls := "unload " + daemonPath + "\nlist ctrld\nunload " + daemonPath + "\nload -w " + daemonPath + "\n"
	if got := m.read("/tmp/launchctl.log"); got != calls {
		t.Fatalf("launchctl calls %q, want %q", got, calls)
	}
	if m.read(users+"/ctrld") != "theirs" {
		t.Error("the user's file was changed or removed")
	}
}
