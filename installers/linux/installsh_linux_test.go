package linux

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
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
		"rm", "rmdir", "mkdir", "chmod", "cp", "mv", "cat", "dirname", "pwd", "ls", "id", "readlink", "mktemp", "tar", "printf")
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
	if strings.Contains(string(block), names.TokenEnv+"=") || strings.Contains(string(block), "-C /tmp") {
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

// userUID owns what a local non-root user could have made.
const userUID = 1000

// installShRoot is a busybox root with the release extracted to /tmp and
// the settings file written; prepare then changes it before install.sh runs.
func installShRoot(t *testing.T, archive string, prepare func(root string)) string {
	t.Helper()
	root := newRoot(t)
	extract(t, archive, filepath.Join(root, "tmp"))
	writeSettings(t, root)
	prepare(root)
	return root
}

func mustDo(t *testing.T, errs ...error) {
	t.Helper()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
}

// install.sh refuses a destination someone other than root could replace,
// with the bundled wrapper's reason, one line of its own and
// CTRLD_NOT_FOUND, before it copies or runs anything: the wrapper's own
// rules (check-path), on the folder the kernel resolves.
func TestInstallShRefusesAReplaceableDestination(t *testing.T) {
	testenv.RealInstall(t, "install.sh in a chroot")
	ctrld, wrapper := binaries(t)
	archive := buildFile(t, Package{Name: "ctrld", Version: "1.0.0", Arch: "amd64", Ctrld: ctrld, Wrapper: wrapper, MTime: epoch}, "tar.gz")
	for _, tc := range []struct {
		name, prefix, reason string
		// refused is the path the wrapper refuses; bin when empty.
		refused string
		prepare func(t *testing.T, root string)
	}{
		{"/usr/local root:staff 2775, as on older Debian", "", "directory /usr/local is group- or world-writable", "", func(t *testing.T, root string) {
			local := filepath.Join(root, "usr", "local")
			mustDo(t, os.Chown(local, 0, 50), os.Chmod(local, os.ModeSetgid|0o775))
		}},
		{"bin owned by a user", "", "directory /usr/local/bin is owned by uid 1000", "", func(t *testing.T, root string) {
			mustDo(t, os.Chown(filepath.Join(root, "usr", "local", "bin"), userUID, userUID))
		}},
		{"world-writable bin", "", "directory /usr/local/bin is group- or world-writable", "", func(t *testing.T, root string) {
			mustDo(t, os.Chmod(filepath.Join(root, "usr", "local", "bin"), 0o777))
		}},
		{"a group-writable ctrld already there", "", "/usr/local/bin/ctrld is group- or world-writable", "/usr/local/bin/ctrld", func(t *testing.T, root string) {
			mustDo(t, os.WriteFile(filepath.Join(root, "usr", "local", "bin", "ctrld"), []byte("old"), 0o775))
			mustDo(t, os.Chmod(filepath.Join(root, "usr", "local", "bin", "ctrld"), 0o775))
		}},
		{"a ctrld-install owned by a user", "", "/usr/local/bin/ctrld-install is owned by uid 1000", "/usr/local/bin/ctrld-install", func(t *testing.T, root string) {
			p := filepath.Join(root, "usr", "local", "bin", "ctrld-install")
			mustDo(t, os.WriteFile(p, []byte("old"), 0o755), os.Chown(p, userUID, userUID))
		}},
		{"a PREFIX linked into a user's folder", "/opt/ctrld", "directory /home/user is owned by uid 1000", "", func(t *testing.T, root string) {
			user := filepath.Join(root, "home", "user")
			mustDo(t, os.MkdirAll(filepath.Join(user, "bin"), 0o755), os.Chown(user, userUID, userUID))
			mustDo(t, os.MkdirAll(filepath.Join(root, "opt"), 0o755), os.Symlink("../home/user", filepath.Join(root, "opt", "ctrld")))
		}},
		// The kernel resolves /opt/link/.. from the link's target, the
		// user's folder: the cleaned path, root's /opt/bin, is not where
		// the binaries would go.
		{"a PREFIX whose .. follows a link into a user's folder", "/opt/link/..", "directory /home/user is owned by uid 65534", "", func(t *testing.T, root string) {
			user := filepath.Join(root, "home", "user")
			mustDo(t, os.MkdirAll(filepath.Join(user, "sub"), 0o755), os.MkdirAll(filepath.Join(user, "bin"), 0o755))
			mustDo(t, os.Chown(user, nobodyUID, nobodyUID), os.Chown(filepath.Join(user, "bin"), nobodyUID, nobodyUID))
			mustDo(t, os.MkdirAll(filepath.Join(root, "opt", "bin"), 0o755), os.Symlink("/home/user/sub", filepath.Join(root, "opt", "link")))
		}},
		{"a relative PREFIX", "opt", "opt/bin is not an absolute path", "", func(*testing.T, string) {}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := installShRoot(t, archive, func(root string) { tc.prepare(t, root) })
			before := strings.Join(tree(root), "\n")
			out, code := run(t, "chroot", root, "/bin/sh", "-c",
				`cd / && PREFIX="$1" exec /bin/sh /tmp/ctrld_1.0.0_linux_amd64/install.sh`, "sh", tc.prefix)
			if code != 62 {
				t.Errorf("exit %d, want 62 (CTRLD_NOT_FOUND)\n%s", code, out)
			}
			bin := tc.prefix + "/bin"
			if tc.prefix == "" {
				bin = "/usr/local/bin"
			}
			refused := tc.refused
			if refused == "" {
				refused = bin
			}
			want := "ctrld-install: refusing " + refused + ": replaceable by another user: " + tc.reason + "\n" +
				"install.sh: refusing to install into " + bin + "; use a PREFIX only root can write to\n"
			if out != want {
				t.Errorf("output\n%q, want\n%q", out, want)
			}
			if after := strings.Join(tree(root), "\n"); after != before {
				t.Errorf("install.sh changed the files:\n%s\nwas\n%s", after, before)
			}
			if _, err := os.Stat(filepath.Join(root, "tmp", "ctrld-calls")); err == nil {
				t.Error("ctrld ran")
			}
			noCanary(t, root)
		})
	}
}

// nobodyUID owns the user's folder of an attack.
const nobodyUID = 65534

// What install.sh accepts: a sticky world-writable folder on the way (like
// /tmp) whose entry is root's, and a PREFIX linked to a root-only folder.
// Under a caller's umask 000 what it creates is still 0755 (0700 for the
// ctrld home).
func TestInstallShAcceptsWhatOnlyRootCanReplace(t *testing.T) {
	testenv.RealInstall(t, "install.sh in a chroot")
	ctrld, wrapper := binaries(t)
	archive := buildFile(t, Package{Name: "ctrld", Version: "1.0.0", Arch: "amd64", Ctrld: ctrld, Wrapper: wrapper, MTime: epoch}, "tar.gz")
	for _, tc := range []struct{ name, prefix, bin string }{
		{"sticky folder on the way", "/shared/ctrld", "shared/ctrld/bin"},
		{"linked PREFIX", "/opt/ctrld", "srv/ctrld/bin"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := installShRoot(t, archive, func(root string) {
				shared := filepath.Join(root, "shared")
				mustDo(t, os.Mkdir(shared, 0o755), os.Chmod(shared, os.ModeSticky|0o777))
				mustDo(t, os.MkdirAll(filepath.Join(root, "srv", "ctrld"), 0o755), os.MkdirAll(filepath.Join(root, "opt"), 0o755))
				mustDo(t, os.Symlink("/srv/ctrld", filepath.Join(root, "opt", "ctrld")))
			})
			out, code := run(t, "chroot", root, "/bin/sh", "-c",
				`cd / && umask 000 && PREFIX="$1" exec /bin/sh /tmp/ctrld_1.0.0_linux_amd64/install.sh`, "sh", tc.prefix)
			if code != 0 {
				t.Fatalf("exit %d\n%s", code, out)
			}
			for _, p := range []string{tc.bin, tc.bin + "/ctrld", tc.bin + "/ctrld-install"} {
				if info, err := os.Stat(filepath.Join(root, p)); err != nil || info.Mode().Perm() != 0o755 {
					t.Errorf("/%s: %v %v, want mode 0755", p, info.Mode(), err)
				}
			}
			if info, err := os.Stat(filepath.Join(root, "etc", "controld")); err != nil || info.Mode().Perm() != 0o700 {
				t.Errorf("/etc/controld: %v %v", info.Mode(), err)
			}
			noCanary(t, root)
		})
	}
}
