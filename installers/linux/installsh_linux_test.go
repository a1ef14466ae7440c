package linux

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testenv"
	"github.com/ctrld-install/ctrld-install/testdata/fakectrld/tokenhash"
)

// The docs' version, so the one-liner runs exactly as printed.
const docsVersion = "1.2.3"

// tarballRoot is a busybox root holding the release tarball at
// /srv/ctrld.tar.gz, with stand-ins for curl (serves that file) and sudo
// (logs its command line, then runs it, as root already).
func tarballRoot(t *testing.T) (root string, wrapper []byte) {
	t.Helper()
	testenv.RequireTool(t, "chroot")
	ctrld, wrapperPath := binaries(t)
	archive := buildFile(t, Package{Name: "ctrld", Version: docsVersion, Arch: "amd64", Ctrld: ctrld, Wrapper: wrapperPath, MTime: epoch}, "tar.gz")
	root = testenv.NewChroot(t, []string{"etc/systemd/system", "usr/bin", "usr/local/bin", "srv", "root", "home"},
		"rm", "rmdir", "mkdir", "chmod", "cp", "mv", "cat", "dirname", "pwd", "ls", "mktemp", "tar", "printf")
	data, err := os.ReadFile(archive)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "srv", "ctrld.tar.gz"), data, 0o644)
	os.WriteFile(filepath.Join(root, "usr", "bin", "curl"), []byte("#!/bin/sh\nexec cat /srv/ctrld.tar.gz\n"), 0o755)
	os.WriteFile(filepath.Join(root, "usr", "bin", "sudo"), []byte("#!/bin/sh\nprintf '%s\\n' \"$*\" >>/tmp/sudo-argv\nexec \"$@\"\n"), 0o755)
	scenario(t, root, "usr/local/bin")
	wrapper, _ = os.ReadFile(wrapperPath)
	return root, wrapper
}

var oneLiner = regexp.MustCompile("(?s)For a one-line install.*?```sh\n(.*?)```\n")

func docsOneLiner(t *testing.T) []byte {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join(testenv.RepoRoot(), "docs", "linux.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := oneLiner.FindSubmatch(doc)
	if m == nil {
		t.Fatal("docs/linux.md has no one-line install")
	}
	return m[1]
}

// The documented one-liner, run as printed (curl and sudo stood in for):
// it extracts into a fresh private folder, the token travels in a
// root-only file that is gone afterwards, and no command line ever holds it.
func TestDocsOneLinerInstalls(t *testing.T) {
	block := docsOneLiner(t)
	testenv.ShellCheck(t, "docs/linux.md one-liner", block)
	for _, must := range []string{"mktemp -d", "--token-file /root/ctrld-token", "umask 077"} {
		if !strings.Contains(string(block), must) {
			t.Errorf("the one-liner lacks %q", must)
		}
	}
	if strings.Contains(string(block), "CTRLD_PROVISION_TOKEN=") || strings.Contains(string(block), "-C /tmp") {
		t.Error("the one-liner puts the token on a command line or extracts to a fixed path")
	}
	root, _ := tarballRoot(t)
	os.WriteFile(filepath.Join(root, "tmp", "oneliner.sh"), block, 0o644)
	os.WriteFile(filepath.Join(root, "tmp", "pasted"), []byte(testenv.Canary+"\n"), 0o600)
	out, code := run(t, "chroot", root, "/bin/sh", "-c", "cd /home && /bin/sh /tmp/oneliner.sh </tmp/pasted")
	os.Remove(filepath.Join(root, "tmp", "pasted"))
	if code != 0 || out != "provisioning complete (exit 0)\n0\n" {
		t.Fatalf("exit %d\n%s", code, out)
	}
	calls, _ := os.ReadFile(filepath.Join(root, "tmp", "ctrld-calls"))
	if !strings.HasPrefix(string(calls), "start --cd-org=sha256:"+tokenhash.Of(testenv.Canary)+"\n") {
		t.Fatalf("ctrld got %q", calls)
	}
	if _, err := os.Stat(filepath.Join(root, "root", "ctrld-token")); err == nil {
		t.Error("the token file was left behind")
	}
	if left, _ := filepath.Glob(filepath.Join(root, "tmp", "tmp.*")); len(left) != 0 {
		t.Errorf("the extraction folder was left behind: %v", left)
	}
	noCanary(t, root)
}

// install.sh sets its own PATH and ignores CDPATH: run from another folder
// through a relative path, with a decoy release on CDPATH and a cp on
// PATH that must never run, it installs the real binaries.
func TestInstallShIgnoresCallersPATHAndCDPATH(t *testing.T) {
	root, wrapper := tarballRoot(t)
	dir := "ctrld_" + docsVersion + "_linux_amd64"
	extract(t, filepath.Join(root, "srv", "ctrld.tar.gz"), filepath.Join(root, "home"))
	decoy := filepath.Join(root, "decoy", dir)
	os.MkdirAll(decoy, 0o755)
	for _, f := range []string{"ctrld", "ctrld-install", "install.sh"} {
		os.WriteFile(filepath.Join(decoy, f), []byte("#!/bin/sh\necho decoy\nexit 99\n"), 0o755)
	}
	os.MkdirAll(filepath.Join(root, "evil"), 0o755)
	os.WriteFile(filepath.Join(root, "evil", "cp"), []byte("#!/bin/sh\ntouch /tmp/evil-ran\nexit 1\n"), 0o755)
	os.WriteFile(filepath.Join(root, "root", "token"), []byte(testenv.Canary+"\n"), 0o600)
	out, code := run(t, "chroot", root, "/bin/sh", "-c",
		"cd /home && CDPATH=/decoy PATH=/evil:/bin /bin/sh "+dir+"/install.sh --token-file /root/token")
	if code != 0 || out != "provisioning complete (exit 0)\n" {
		t.Fatalf("exit %d\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(root, "tmp", "evil-ran")); err == nil {
		t.Fatal("install.sh ran the caller's cp")
	}
	got, _ := os.ReadFile(filepath.Join(root, "usr", "local", "bin", "ctrld-install"))
	if string(got) != string(wrapper) {
		t.Fatal("installed ctrld-install is not the release's")
	}
	for _, f := range testenv.FilesWithCanary(root, filepath.Join(root, "root", "token")) {
		t.Errorf("canary token in %s", strings.TrimPrefix(f, root))
	}
}
