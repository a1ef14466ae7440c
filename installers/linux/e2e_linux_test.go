package linux

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// The end-to-end tests install the real packages with the real dpkg and
// rpm into a throwaway root holding only busybox, /dev/null and the fake
// ctrld's scenario. dpkg and rpm chroot into it to run the maintainer
// scripts, so the shims and the wrapper run as they would on a machine.

// binaries builds static Linux binaries of the wrapper and the fake ctrld.
func binaries(t *testing.T) (ctrld, wrapper string) {
	t.Helper()
	dir := t.TempDir()
	env := []string{"CGO_ENABLED=0", "GOOS=linux"}
	return testenv.GoBuild(t, dir, "ctrld", "./testdata/fakectrld", env...),
		testenv.GoBuild(t, dir, "ctrld-install", "./wrapper", env...)
}

// newRoot makes a minimal root with the tools the shims use.
func newRoot(t *testing.T) string {
	return testenv.NewChroot(t, []string{"etc/systemd/system", "usr/bin", "usr/local/bin"},
		"rm", "rmdir", "mkdir", "chmod", "cp", "mv", "cat", "dirname", "pwd", "ls", "id", "readlink")
}

// scenario sets what the fake ctrld does; it lives beside the installed
// binary, where the fake looks for it.
func scenario(t *testing.T, root, binDir string, lines ...string) {
	t.Helper()
	base := []string{"home=/etc/controld", "service-file=/etc/systemd/system/ctrld.service", "record=/tmp/ctrld-calls"}
	body := strings.Join(append(base, lines...), "\n") + "\n"
	if err := os.WriteFile(filepath.Join(root, binDir, "fake-ctrld.scenario"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func writeSettings(t *testing.T, root string) {
	t.Helper()
	os.MkdirAll(filepath.Join(root, "etc", "controld"), 0o700)
	err := os.WriteFile(filepath.Join(root, "etc", "controld", "ctrld-install.conf"), []byte("ProvisionToken="+testenv.Canary+"\n"), 0o600)
	if err != nil {
		t.Fatal(err)
	}
}

// run runs a command and returns its combined output and exit code. The
// canary must never be in a package manager's output.
func run(t *testing.T, name string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = []string{"PATH=/usr/sbin:/usr/bin:/sbin:/bin", "LC_ALL=C"}
	out, err := cmd.CombinedOutput()
	code, err := testenv.ExitCode(err)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if bytes.Contains(out, []byte(testenv.Canary)) {
		t.Fatalf("canary token in the output of %s %v", name, args)
	}
	return string(out), code
}

// noCanary fails when the token is in any file under root except the
// settings file that holds it on purpose.
func noCanary(t *testing.T, root string) {
	t.Helper()
	settings := filepath.Join(root, "etc", "controld", "ctrld-install.conf")
	for _, f := range testenv.FilesWithCanary(root, settings) {
		t.Errorf("canary token in %s", strings.TrimPrefix(f, root))
	}
}

// dpkg runs the real dpkg on root. --root moves dpkg's database but not
// its log, so the log goes into root too: the host's stays as it was.
func dpkg(t *testing.T, root string, args ...string) (string, int) {
	t.Helper()
	return run(t, "dpkg", append([]string{"--root=" + root, "--log=" + filepath.Join(root, "var", "log", "dpkg.log")}, args...)...)
}

func dpkgStatus(t *testing.T, root string) string {
	out, _ := dpkg(t, root, "-s", "ctrld")
	for _, line := range strings.Split(out, "\n") {
		if s, ok := strings.CutPrefix(line, "Status: "); ok {
			return s
		}
	}
	return "not installed"
}

// tree lists every path under root, for a before/after comparison. dpkg's
// own bookkeeping files and its log are left out, but not what it keeps
// for ctrld.
func tree(root string) []string {
	var paths []string
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		rel := strings.TrimPrefix(path, root)
		bookkeeping := strings.HasPrefix(rel, "/var/lib/dpkg/") && !strings.Contains(rel, "ctrld") || rel == "/var/log/dpkg.log"
		if err == nil && path != root && !bookkeeping {
			paths = append(paths, rel)
		}
		return nil
	})
	sort.Strings(paths)
	return paths
}

func initDpkg(t *testing.T, root string) {
	t.Helper()
	for _, d := range []string{"info", "updates", "triggers"} {
		os.MkdirAll(filepath.Join(root, "var", "lib", "dpkg", d), 0o755)
	}
	os.MkdirAll(filepath.Join(root, "var", "log"), 0o755)
	os.WriteFile(filepath.Join(root, "var", "lib", "dpkg", "status"), nil, 0o644)
}

func TestDebWithRealDpkg(t *testing.T) {
	testenv.RealInstall(t, "dpkg installs into a chroot")
	testenv.RequireTool(t, "dpkg")
	ctrld, wrapper := binaries(t)
	v1 := buildFile(t, Package{Name: "ctrld", Version: "1.0.0", Arch: "amd64", Ctrld: ctrld, Wrapper: wrapper, MTime: epoch}, "deb")
	v2 := buildFile(t, Package{Name: "ctrld", Version: "1.1.0", Arch: "amd64", Ctrld: ctrld, Wrapper: wrapper, MTime: epoch}, "deb")
	root := newRoot(t)
	initDpkg(t, root)
	before := tree(root)

	// No settings: installs cleanly and says so in one line.
	scenario(t, root, "usr/bin")
	out, code := dpkg(t, root, "-i", v1)
	if code != 0 || !strings.Contains(out, "ctrld: installed, not provisioned") || strings.Contains(out, "provisioning ") {
		t.Fatalf("install without settings: exit %d\n%s", code, out)
	}
	if log, _ := os.ReadFile(filepath.Join(root, "var", "log", "dpkg.log")); !strings.Contains(string(log), " install ctrld:") {
		t.Fatalf("dpkg logged the install somewhere else than the chroot:\n%s", log)
	}
	dpkg(t, root, "--purge", "ctrld")

	// Provisioning fails at the listener: dpkg fails, the package is
	// half-configured, and our line is in dpkg's output.
	writeSettings(t, root)
	scenario(t, root, "usr/bin", "start.echo-token=1", "start.fail=listener,LISTENER_BIND_FAILED,41")
	out, code = dpkg(t, root, "-i", v1)
	if code == 0 || !strings.Contains(out, "provisioning failed: stage=listener code=LISTENER_BIND_FAILED (exit 41)\n") {
		t.Fatalf("failing provisioning: exit %d\n%s", code, out)
	}
	if st := dpkgStatus(t, root); st != "install ok half-configured" {
		t.Fatalf("status after failure: %q", st)
	}

	// The cause is fixed; dpkg --configure -a finishes the job. The result
	// file of the failed attempt is older than this attempt by then.
	time.Sleep(1100 * time.Millisecond)
	scenario(t, root, "usr/bin")
	out, code = dpkg(t, root, "--configure", "-a")
	if code != 0 || !strings.Contains(out, "provisioning complete (exit 0)\n") {
		t.Fatalf("configure -a: exit %d\n%s", code, out)
	}
	if st := dpkgStatus(t, root); st != "install ok installed" {
		t.Fatalf("status after configure: %q", st)
	}

	// Upgrade without any token: the existing service is reloaded.
	os.Remove(filepath.Join(root, "etc", "controld", "ctrld-install.conf"))
	os.Remove(filepath.Join(root, "tmp", "ctrld-calls"))
	out, code = dpkg(t, root, "-i", v2)
	if code != 0 || !strings.Contains(out, "provisioning complete (exit 0)\n") {
		t.Fatalf("upgrade: exit %d\n%s", code, out)
	}
	calls, _ := os.ReadFile(filepath.Join(root, "tmp", "ctrld-calls"))
	if !strings.Contains(string(calls), "restart\n") || strings.Contains(string(calls), "cd-org") {
		t.Fatalf("upgrade should reload, not provision: %q", calls)
	}
	if st := dpkgStatus(t, root); st != "install ok installed" {
		t.Fatalf("status after upgrade: %q", st)
	}
	noCanary(t, root)

	// Purge: the service is uninstalled and nothing of ours is left.
	out, code = dpkg(t, root, "--purge", "ctrld")
	if code != 0 {
		t.Fatalf("purge: exit %d\n%s", code, out)
	}
	os.Remove(filepath.Join(root, "tmp", "ctrld-calls"))
	os.Remove(filepath.Join(root, "usr", "bin", "fake-ctrld.scenario"))
	if after := tree(root); strings.Join(after, "\n") != strings.Join(before, "\n") {
		t.Fatalf("purge left changes:\nbefore %q\nafter  %q", before, after)
	}
}

func TestRpmWithRealRpm(t *testing.T) {
	testenv.RealInstall(t, "rpm installs into a chroot")
	testenv.RequireTool(t, "rpm")
	ctrld, wrapper := binaries(t)
	pkg := buildFile(t, Package{Name: "ctrld", Version: "1.0.0", Arch: "amd64", Ctrld: ctrld, Wrapper: wrapper, MTime: epoch}, "rpm")

	out, code := run(t, "rpm", "-qp", "--scripts", pkg)
	for _, want := range []string{"postinstall scriptlet", "/usr/bin/ctrld-install start", "preuninstall scriptlet", "uninstall --ctrld /usr/bin/ctrld", "postuninstall scriptlet"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Fatalf("rpm --scripts lacks %q:\n%s", want, out)
		}
	}

	root := newRoot(t)
	if out, code := run(t, "rpm", "--root", root, "--initdb"); code != 0 {
		t.Fatalf("initdb: %s", out)
	}
	writeSettings(t, root)
	scenario(t, root, "usr/bin", "start.echo-token=1", "start.fail=listener,LISTENER_BIND_FAILED,41")
	// --nodeps: the throwaway root has no package providing /bin/sh.
	out, code = run(t, "rpm", "--root", root, "-i", "--nodeps", pkg)
	if !strings.Contains(out, "provisioning failed: stage=listener code=LISTENER_BIND_FAILED (exit 41)\n") ||
		!strings.Contains(out, "%post(ctrld-1.0.0-1.x86_64) scriptlet failed, exit status 41") {
		t.Fatalf("rpm -i: exit %d\n%s", code, out)
	}
	// rpm only warns: the package stays installed.
	if out, code := run(t, "rpm", "--root", root, "-q", "ctrld"); code != 0 {
		t.Fatalf("package not installed after a failed %%post: %s", out)
	}
	noCanary(t, root)
	if out, code := run(t, "rpm", "--root", root, "-e", "ctrld"); code != 0 {
		t.Fatalf("erase: %s", out)
	}
	if _, err := os.Stat(filepath.Join(root, "etc", "controld")); err == nil {
		t.Fatal("erase left /etc/controld behind")
	}
}

func TestTarballInstallShUnderBusybox(t *testing.T) {
	testenv.RealInstall(t, "install.sh in a chroot")
	testenv.RequireTool(t, "chroot")
	ctrld, wrapper := binaries(t)
	archive := buildFile(t, Package{Name: "ctrld", Version: "1.0.0", Arch: "amd64", Ctrld: ctrld, Wrapper: wrapper, MTime: epoch}, "tar.gz")
	for _, tc := range []struct {
		name     string
		scenario []string
		want     int
		line     string
	}{
		{"success", nil, 0, "provisioning complete (exit 0)"},
		{"listener failure", []string{"start.fail=listener,LISTENER_BIND_FAILED,41"}, 41, "provisioning failed: stage=listener code=LISTENER_BIND_FAILED (exit 41)"},
		{"token expired", []string{"start.exit=34"}, 34, "provisioning failed: stage=bootstrap code=TOKEN_EXPIRED (exit 34)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := newRoot(t)
			extract(t, archive, filepath.Join(root, "tmp"))
			writeSettings(t, root)
			scenario(t, root, "usr/local/bin", tc.scenario...)
			out, code := run(t, "chroot", root, "/bin/sh", "/tmp/ctrld_1.0.0_linux_amd64/install.sh")
			if code != tc.want || strings.TrimSpace(out) != tc.line {
				t.Fatalf("install.sh: exit %d, want %d\n%s", code, tc.want, out)
			}
			for _, bin := range []string{"ctrld", "ctrld-install"} {
				if info, err := os.Stat(filepath.Join(root, "usr", "local", "bin", bin)); err != nil || info.Mode().Perm() != 0o755 {
					t.Fatalf("%s not installed: %v", bin, err)
				}
			}
			if info, _ := os.Stat(filepath.Join(root, "etc", "controld")); info.Mode().Perm() != 0o700 {
				t.Fatalf("/etc/controld mode %v", info.Mode().Perm())
			}
			noCanary(t, root)
		})
	}
}

func extract(t *testing.T, archive, dir string) {
	t.Helper()
	f, err := os.Open(archive)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(dir, h.Name)
		if h.Typeflag == tar.TypeDir {
			os.MkdirAll(dst, 0o755)
			continue
		}
		data, _ := io.ReadAll(tr)
		os.WriteFile(dst, data, os.FileMode(h.Mode))
	}
}
