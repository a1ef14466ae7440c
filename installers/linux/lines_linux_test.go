package linux

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// Both lines ship as the one package names.LinuxPackage, so a move
// between them is an upgrade (or a downgrade) of that package: one
// transaction, after which the package database holds exactly one ctrld,
// carrying exactly one line's binary.

// linePackages builds the v1 package (the fake as ctrld, 1.5.0) and the
// client-line one (the fake as ctrld-client, in client mode by its name,
// 2.0.0) of one format.
func linePackages(t *testing.T, format Format) (v1, client string) {
	t.Helper()
	ctrld, wrapper := binaries(t)
	clientCtrld := testenv.GoBuild(t, t.TempDir(), names.CtrldClient, "./testdata/fakectrld", "CGO_ENABLED=0", "GOOS=linux")
	v1 = buildFile(t, Package{Name: names.LinuxPackage, Version: "1.5.0", Arch: "amd64", Ctrld: ctrld, Wrapper: wrapper, MTime: epoch}, format)
	client = buildFile(t, Package{Name: names.LinuxPackage, Version: "2.0.0", Arch: "amd64", Ctrld: clientCtrld, Wrapper: wrapper, MTime: epoch}, format)
	return v1, client
}

// leftoverV1Ctrld stands in place of v1's installed binary: run, it says
// so and fails. rpm runs the new package's %post before it erases the old
// package's files, so the client's shim must name its own ctrld.
var leftoverV1Ctrld = []byte("#!/bin/sh\necho \"$*\" >> /tmp/v1-ran\nexit 1\n")

// checkOneLine fails unless root holds the binary of line and not the
// other line's, and the package manager lists exactly want.
func checkOneLine(t *testing.T, root, line string, installed []string, want string) {
	t.Helper()
	if len(installed) != 1 || installed[0] != want {
		t.Fatalf("package database: %q, want only %q", installed, want)
	}
	for _, l := range names.CtrldLines {
		_, err := os.Stat(filepath.Join(root, "usr", "bin", l.Binary))
		if present := err == nil; present != (l.Binary == line) {
			t.Errorf("/usr/bin/%s present=%v after installing the %s line", l.Binary, present, line)
		}
	}
}

// lines drops empty lines.
func lines(out string) []string {
	return slices.DeleteFunc(strings.Split(out, "\n"), func(s string) bool { return strings.TrimSpace(s) == "" })
}

func TestDebMovesBetweenLinesInOneTransaction(t *testing.T) {
	testenv.RealInstall(t, "dpkg installs into a chroot")
	testenv.RequireTool(t, "dpkg")
	v1, client := linePackages(t, Deb)
	root := newRoot(t)
	initDpkg(t, root)
	before := tree(root)
	writeSettings(t, root)
	scenario(t, root, "usr/bin")
	installed := func() []string {
		out, _ := run(t, "dpkg-query", "--admindir="+filepath.Join(root, "var", "lib", "dpkg"), "-W", "-f", "${Package} ${Version} ${db:Status-Abbrev}\n")
		return lines(out)
	}
	files := func() string {
		out, _ := dpkg(t, root, "-L", names.LinuxPackage)
		return out
	}

	if out, code := dpkg(t, root, "-i", v1); code != 0 || !strings.Contains(out, "provisioning complete (exit 0)\n") {
		t.Fatalf("v1 install: exit %d\n%s", code, out)
	}
	checkOneLine(t, root, names.Ctrld, installed(), "ctrld 1.5.0 ii ")

	out, code := dpkg(t, root, "-i", client)
	if code != 0 || !strings.Contains(out, "provisioning complete (exit 0)\n") {
		t.Fatalf("move to the client line: exit %d\n%s", code, out)
	}
	checkOneLine(t, root, names.CtrldClient, installed(), "ctrld 2.0.0 ii ")
	if l := files(); !strings.Contains(l, "/usr/bin/ctrld-client\n") || strings.Contains(l, "/usr/bin/ctrld\n") {
		t.Fatalf("dpkg -L after the move:\n%s", l)
	}

	// Back to v1: a downgrade of the same package, dpkg -i takes it.
	out, code = dpkg(t, root, "-i", v1)
	if code != 0 || !strings.Contains(out, "provisioning complete (exit 0)\n") {
		t.Fatalf("move back to v1: exit %d\n%s", code, out)
	}
	checkOneLine(t, root, names.Ctrld, installed(), "ctrld 1.5.0 ii ")
	noCanary(t, root)

	// What each line's daemon writes as it runs (the fake writes none of
	// it): the client line's sysv logs outlive its package, and its home
	// logs and sockets keep v1's names.
	for _, f := range append(within("/var/log", []string{"ctrld.log", "ctrld.err", "ctrld-client.log", "ctrld-client.err"}),
		within("/etc/controld", []string{"ctrld.log", "ctrld.log.4", "ctrld-journal.log", "ctrld-journal.log.2"})...) {
		if err := os.WriteFile(filepath.Join(root, f), []byte("log\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if out, code := dpkg(t, root, "--purge", names.LinuxPackage); code != 0 {
		t.Fatalf("purge: exit %d\n%s", code, out)
	}
	for _, f := range []string{"tmp/ctrld-calls", "usr/bin/fake-ctrld.scenario"} {
		os.Remove(filepath.Join(root, f))
	}
	if after := tree(root); strings.Join(after, "\n") != strings.Join(before, "\n") {
		t.Fatalf("purge after the moves left changes:\nbefore %q\nafter  %q", before, after)
	}
}

func TestRpmMovesBetweenLinesInOneTransaction(t *testing.T) {
	testenv.RealInstall(t, "rpm installs into a chroot")
	testenv.RequireTool(t, "rpm")
	v1, client := linePackages(t, RPM)
	root := newRoot(t)
	if out, code := run(t, "rpm", "--root", root, "--initdb"); code != 0 {
		t.Fatalf("initdb: %s", out)
	}
	writeSettings(t, root)
	scenario(t, root, "usr/bin")
	installed := func() []string {
		out, _ := run(t, "rpm", "--root", root, "-qa", "--qf", "%{NAME} %{VERSION}\n")
		return lines(out)
	}
	files := func() string {
		out, _ := run(t, "rpm", "--root", root, "-ql", names.LinuxPackage)
		return out
	}
	// --nodeps: the throwaway root has no package providing /bin/sh.
	if out, code := run(t, "rpm", "--root", root, "-i", "--nodeps", v1); code != 0 || !strings.Contains(out, "provisioning complete (exit 0)\n") {
		t.Fatalf("v1 install: exit %d\n%s", code, out)
	}
	checkOneLine(t, root, names.Ctrld, installed(), "ctrld 1.5.0")

	if err := os.WriteFile(filepath.Join(root, "usr", "bin", names.Ctrld), leftoverV1Ctrld, 0o755); err != nil {
		t.Fatal(err)
	}
	out, code := run(t, "rpm", "--root", root, "-U", "--nodeps", client)
	if code != 0 || !strings.Contains(out, "provisioning complete (exit 0)\n") {
		t.Fatalf("move to the client line: exit %d\n%s", code, out)
	}
	if ran, _ := os.ReadFile(filepath.Join(root, "tmp", "v1-ran")); len(ran) != 0 {
		t.Fatalf("the client package's %%post ran v1's ctrld: %q", ran)
	}
	checkOneLine(t, root, names.CtrldClient, installed(), "ctrld 2.0.0")
	if l := files(); !strings.Contains(l, "/usr/bin/ctrld-client\n") || strings.Contains(l, "/usr/bin/ctrld\n") {
		t.Fatalf("rpm -ql after the move:\n%s", l)
	}

	// Back to v1: a downgrade, which rpm takes with --oldpackage.
	out, code = run(t, "rpm", "--root", root, "-U", "--oldpackage", "--nodeps", v1)
	if code != 0 || !strings.Contains(out, "provisioning complete (exit 0)\n") {
		t.Fatalf("move back to v1: exit %d\n%s", code, out)
	}
	checkOneLine(t, root, names.Ctrld, installed(), "ctrld 1.5.0")
	noCanary(t, root)

	if out, code := run(t, "rpm", "--root", root, "-e", names.LinuxPackage); code != 0 {
		t.Fatalf("erase: %s", out)
	}
	if got := installed(); len(got) != 0 {
		t.Fatalf("after erase: %q", got)
	}
	for _, l := range names.CtrldLines {
		if _, err := os.Stat(filepath.Join(root, "usr", "bin", l.Binary)); err == nil {
			t.Errorf("erase left /usr/bin/%s", l.Binary)
		}
	}
}

// The client line's install.sh, run where a v1 tarball installed ctrld
// into the same PREFIX, drives the ctrld-client it copied (the fake, in
// client mode by its name), never the v1 binary beside it.
func TestClientTarballRunsCtrldClient(t *testing.T) {
	testenv.RealInstall(t, "install.sh in a chroot")
	testenv.RequireTool(t, "chroot")
	_, client := linePackages(t, Tarball)
	root := newRoot(t)
	extract(t, client, filepath.Join(root, "tmp"))
	writeSettings(t, root)
	scenario(t, root, "usr/local/bin")
	if err := os.WriteFile(filepath.Join(root, "usr", "local", "bin", names.Ctrld), leftoverV1Ctrld, 0o755); err != nil {
		t.Fatal(err)
	}
	out, code := run(t, "chroot", root, "/bin/sh", "/tmp/ctrld_2.0.0_linux_amd64/install.sh")
	if code != 0 || strings.TrimSpace(out) != "provisioning complete (exit 0)" {
		t.Fatalf("install.sh: exit %d\n%s", code, out)
	}
	if ran, _ := os.ReadFile(filepath.Join(root, "tmp", "v1-ran")); len(ran) != 0 {
		t.Fatalf("install.sh ran the v1 ctrld: %q", ran)
	}
	if calls, _ := os.ReadFile(filepath.Join(root, "tmp", "ctrld-calls")); !strings.HasPrefix(string(calls), "start --cd-org=") {
		t.Fatalf("ctrld-client calls %q", calls)
	}
	// The admin kit's commands read the client line's record as v1's.
	if out, code := run(t, "chroot", root, "/usr/local/bin/ctrld-install", "last"); code != 0 || out != "provisioning complete (exit 0)\n" {
		t.Fatalf("ctrld-install last: exit %d %q", code, out)
	}
	out, code = run(t, "chroot", root, "/usr/local/bin/ctrld-install", "explain")
	t.Logf("ctrld-install explain: exit %d\n%s", code, out)
	if code != 0 || !strings.Contains(out, "provisioning complete (exit 0)") {
		t.Fatalf("ctrld-install explain: exit %d\n%s", code, out)
	}
	noCanary(t, root)
}
