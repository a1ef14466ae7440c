package linux

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

var epoch = time.Unix(1_700_000_000, 0).UTC()

func buildFile(t *testing.T, p Package, format Format) string {
	t.Helper()
	p.Format = format
	out := filepath.Join(t.TempDir(), p.Name+"-"+p.Version+"."+string(format))
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	signed, err := p.Build(f)
	if signed != (p.SigningKey != "" && format != Tarball) {
		t.Errorf("%s: Build reports signed=%v with signing key %q", format, signed, p.SigningKey)
	}
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// fakeBinaries are small stand-ins: these tests read packages, they do not
// run what is inside.
func fakeBinaries(t *testing.T) (string, string) {
	dir := t.TempDir()
	ctrld, wrapper := filepath.Join(dir, "ctrld"), filepath.Join(dir, "ctrld-install")
	os.WriteFile(ctrld, []byte("#!/bin/sh\necho ctrld\n"), 0o755)
	os.WriteFile(wrapper, []byte("#!/bin/sh\necho wrapper\n"), 0o755)
	return ctrld, wrapper
}

func TestBuildsAreReproducible(t *testing.T) {
	ctrld, wrapper := fakeBinaries(t)
	p := Package{Name: "ctrld", Version: "1.2.3", Arch: "arm64", Ctrld: ctrld, Wrapper: wrapper, MTime: epoch}
	for _, format := range append(Formats, Tarball) {
		a, b := buildFile(t, p, format), buildFile(t, p, format)
		da, _ := os.ReadFile(a)
		db, _ := os.ReadFile(b)
		if len(da) == 0 || !bytes.Equal(da, db) {
			t.Errorf("%s: two builds differ", format)
		}
	}
}

func TestMTimeIsRequired(t *testing.T) {
	ctrld, wrapper := fakeBinaries(t)
	p := Package{Format: Deb, Name: "ctrld", Version: "1.2.3", Arch: "amd64", Ctrld: ctrld, Wrapper: wrapper}
	if _, err := p.Build(&bytes.Buffer{}); err == nil {
		t.Fatal("built without a fixed time")
	}
}

func TestDebMetadataAndContents(t *testing.T) {
	testenv.RequireTool(t, "dpkg-deb")
	ctrld, wrapper := fakeBinaries(t)
	deb := buildFile(t, Package{Name: "ctrld", Version: "1.2.3", Arch: "arm64", Ctrld: ctrld, Wrapper: wrapper, MTime: epoch}, "deb")
	info, err := exec.Command("dpkg-deb", "-I", deb).CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, info)
	}
	for _, want := range []string{"Package: ctrld", "Version: 1.2.3", "Architecture: arm64", "Maintainer: " + maintainer,
		"Homepage: " + homepage, "Description: " + description, " postinst ", " prerm ", " postrm "} {
		if !strings.Contains(string(info), want) {
			t.Errorf("control lacks %q", want)
		}
	}
	if strings.Contains(string(info), "Depends:") {
		t.Error("the package must not depend on anything")
	}
	contents, _ := exec.Command("dpkg-deb", "-c", deb).CombinedOutput()
	for _, want := range []string{"drwx------ root/root         0 2023-11-14 22:13 ./etc/controld/",
		"-rwxr-xr-x root/root", "./usr/bin/ctrld\n", "./usr/bin/ctrld-install\n"} {
		if !strings.Contains(string(contents), want) {
			t.Errorf("contents lack %q:\n%s", want, contents)
		}
	}
}

func TestRpmMetadata(t *testing.T) {
	testenv.RequireTool(t, "rpm")
	ctrld, wrapper := fakeBinaries(t)
	rpm := buildFile(t, Package{Name: "ctrld", Version: "1.2.3", Arch: "amd64", Ctrld: ctrld, Wrapper: wrapper, MTime: epoch}, "rpm")
	out, err := exec.Command("rpm", "-qp", "--queryformat", "%{NAME} %{VERSION} %{ARCH} %{LICENSE} %{URL} %{BUILDHOST}\n", rpm).Output()
	if err != nil || string(out) != "ctrld 1.2.3 x86_64 MIT "+homepage+" ctrld-install\n" {
		t.Fatalf("rpm metadata %q (%v)", out, err)
	}
	list, _ := exec.Command("rpm", "-qp", "--dump", rpm).Output()
	if !strings.Contains(string(list), "/etc/controld 4096 1700000000 0000000000000000000000000000000000000000000000000000000000000000 040700 root root") {
		t.Errorf("/etc/controld is not root-only:\n%s", list)
	}
}

func TestCtrldKeepsItsReleaseName(t *testing.T) {
	testenv.RequireTool(t, "dpkg-deb")
	dir := t.TempDir()
	client := filepath.Join(dir, "ctrld-client")
	os.WriteFile(client, []byte("x"), 0o755)
	_, wrapper := fakeBinaries(t)
	deb := buildFile(t, Package{Name: "ctrld", Version: "1.0.0", Arch: "amd64", Ctrld: client, Wrapper: wrapper, MTime: epoch}, "deb")
	contents, _ := exec.Command("dpkg-deb", "-c", deb).Output()
	control, _ := exec.Command("dpkg-deb", "-I", deb, "prerm").Output()
	postinst, _ := exec.Command("dpkg-deb", "-I", deb, "postinst").Output()
	control = append(control, postinst...)
	if !strings.Contains(string(contents), "./usr/bin/ctrld-client\n") || !strings.Contains(string(control), "uninstall --ctrld /usr/bin/ctrld-client") ||
		!strings.Contains(string(control), "start --ctrld /usr/bin/ctrld-client\n") {
		t.Fatalf("ctrld-client renamed or not used by the shims:\n%s\n%s", contents, control)
	}
}

// The shims, rendered as they ship, pass shellcheck as POSIX sh.
func TestRenderedScriptsPassShellcheck(t *testing.T) {
	p := Package{Name: "ctrld", Version: "1.0.0", Arch: "amd64", Ctrld: "/x/ctrld", Wrapper: "/x/ctrld-install", MTime: epoch}
	for _, name := range []string{"postinstall.sh", "preremove.sh", "postremove.sh"} {
		body, err := renderScript(name, p.vars(BinDir))
		if err != nil {
			t.Fatal(err)
		}
		testenv.ShellCheck(t, name, body)
	}
	body, err := renderScript("install.sh", p.vars("$prefix/bin"))
	if err != nil {
		t.Fatal(err)
	}
	testenv.ShellCheck(t, "install.sh", body)
}

// The shims name the token's environment variable only through the
// contract: none types it, and postinstall's advice renders it.
func TestScriptsTakeTheTokenVariableFromTheContract(t *testing.T) {
	sources, err := fs.Glob(scriptFiles, "scripts/*.sh")
	if err != nil || len(sources) == 0 {
		t.Fatalf("no embedded scripts: %v", err)
	}
	for _, name := range sources {
		raw, err := fs.ReadFile(scriptFiles, name)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(raw), names.TokenEnv) {
			t.Errorf("%s types %s; use {{.TokenEnv}}", name, names.TokenEnv)
		}
	}
	p := Package{Name: "ctrld", Version: "1.0.0", Arch: "amd64", Ctrld: "/x/ctrld", Wrapper: "/x/ctrld-install", MTime: epoch}
	post, err := renderScript("postinstall.sh", p.vars(BinDir))
	if err != nil {
		t.Fatal(err)
	}
	if want := "no token in " + SettingsFile + " or " + names.TokenEnv + "\""; !strings.Contains(string(post), want) {
		t.Errorf("postinstall's advice does not name %s:\n%s", names.TokenEnv, post)
	}
}

// The removal scripts take their lists from the contract package: a file
// the wrapper or ctrld starts writing under another name is still
// removed, and removal goes through the wrapper as on every OS.
func TestRemovalScriptsFollowTheContract(t *testing.T) {
	p := Package{Name: "ctrld", Version: "1.0.0", Arch: "amd64", Ctrld: "/x/ctrld-client", Wrapper: "/x/ctrld-install", MTime: epoch}
	post, err := renderScript("postremove.sh", p.vars(BinDir))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range names.HomeFiles {
		if !strings.Contains(string(post), " "+names.Home+"/"+f+" ") && !strings.Contains(string(post), " "+names.Home+"/"+f+"\n") {
			t.Errorf("postremove does not remove %s:\n%s", f, post)
		}
	}
	ctrldFiles := append(within(names.RunDir, names.CtrldRunFiles("ctrld-client")), within(names.LogDir, names.CtrldLogs("ctrld-client"))...)
	for _, f := range append(ctrldFiles, within(names.Home, names.CtrldHomeLogs("ctrld-client"))...) {
		if !strings.Contains(string(post), " "+f+" ") && !strings.Contains(string(post), " "+f+"\n") {
			t.Errorf("postremove does not remove ctrld's %s:\n%s", f, post)
		}
	}
	pre, err := renderScript("preremove.sh", p.vars(BinDir))
	if err != nil {
		t.Fatal(err)
	}
	want := BinDir + "/" + names.Wrapper + " uninstall --ctrld " + BinDir + "/ctrld-client "
	if !strings.Contains(string(pre), want) {
		t.Errorf("preremove does not run %q:\n%s", want, pre)
	}
}

// Each architecture carries the format's own name for it, read back with
// the format's tool.
func TestArchitectureNamesReadBack(t *testing.T) {
	dpkgDeb := testenv.RequireTool(t, "dpkg-deb")
	rpm := testenv.RequireTool(t, "rpm")
	ctrld, wrapper := fakeBinaries(t)
	for arch, names := range Arches {
		p := Package{Name: "ctrld", Version: "1.2.3", Arch: arch, Ctrld: ctrld, Wrapper: wrapper, MTime: epoch}
		if names.Deb != "" {
			out, err := exec.Command(dpkgDeb, "-f", buildFile(t, p, "deb"), "Architecture").Output()
			if err != nil || strings.TrimSpace(string(out)) != names.Deb {
				t.Errorf("%s deb: Architecture %q, want %q (%v)", arch, out, names.Deb, err)
			}
			p.Format = Deb
			if name := p.FileName(); name != "ctrld_1.2.3_"+names.Deb+".deb" {
				t.Errorf("%s deb file name %q", arch, name)
			}
		}
		out, err := exec.Command(rpm, "-qp", "--qf", "%{ARCH}", buildFile(t, p, "rpm")).Output()
		if err != nil || string(out) != names.RPM {
			t.Errorf("%s rpm: ARCH %q, want %q (%v)", arch, out, names.RPM, err)
		}
		p.Format = RPM
		if name := p.FileName(); name != "ctrld-1.2.3-1."+names.RPM+".rpm" {
			t.Errorf("%s rpm file name %q", arch, name)
		}
		p.Format = Tarball
		if p.FileName() != "ctrld_1.2.3_linux_"+arch+".tar.gz" {
			t.Errorf("%s tarball name %q", arch, p.FileName())
		}
	}
}

func TestArchitectureWithoutANameIsRefused(t *testing.T) {
	ctrld, wrapper := fakeBinaries(t)
	armv6 := Package{Format: Deb, Name: "ctrld", Version: "1.2.3", Arch: "armv6", Ctrld: ctrld, Wrapper: wrapper, MTime: epoch}
	if _, err := armv6.Build(&bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), `deb has no name for architecture "armv6"`) {
		t.Errorf("armv6 deb: %v", err)
	}
	if name := armv6.FileName(); name != "" {
		t.Errorf("armv6 deb got the file name %q", name)
	}
	mips := armv6
	mips.Format, mips.Arch = Tarball, "mips"
	if _, err := mips.Build(&bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), `unknown architecture "mips"`) {
		t.Errorf("mips: %v", err)
	}
}
