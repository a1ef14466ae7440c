package release

import (
	"archive/zip"
	"bytes"
	"crypto/x509"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/installers/macos/codesign"
	"github.com/ctrld-install/ctrld-install/installers/macos/xar"
	"github.com/ctrld-install/ctrld-install/installers/signing"
	"github.com/ctrld-install/ctrld-install/installers/signing/signingtest"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// With every signing variable set, dist signs each ctrld-install.exe
// before it goes into its MSI, each MSI and the pkg, in Go; two runs give
// the same bytes (RSA PKCS#1 v1.5, no timestamp), and no key material
// reaches an artifact or the progress log.
func TestSignedDist(t *testing.T) {
	t.Parallel()
	testenv.WholeRelease(t, "two signed dists")
	osslsigncode := testenv.RequireTool(t, "osslsigncode")
	msiextract := testenv.RequireTool(t, "msiextract")
	pki := signingtest.NewPKI(t)
	win, mac, app := pki.Leaf(t, signingtest.Windows()), pki.Leaf(t, signingtest.Installer()), pki.Leaf(t, signingtest.Application())
	winFiles, macFiles, appFiles := win.Write(t, t.TempDir()), mac.Write(t, t.TempDir()), app.Write(t, t.TempDir())
	env := map[string]string{
		signing.EnvWindowsCert: winFiles.Cert, signing.EnvWindowsKey: winFiles.Key,
		signing.EnvPkgCert: macFiles.Cert, signing.EnvPkgKey: macFiles.Key,
		signing.EnvMachOCert: appFiles.Cert, signing.EnvMachOKey: appFiles.Key,
	}
	ids, err := signing.FromEnv(func(k string) string { return env[k] })
	if err != nil || ids.Windows == nil || ids.Pkg == nil || ids.MachO == nil {
		t.Fatalf("FromEnv: %+v, %v", ids, err)
	}
	leaks := func(what string, data []byte) {
		t.Helper()
		if win.Leaks(t, data) || mac.Leaks(t, data) || app.Leaks(t, data) {
			t.Errorf("%s carries private key material", what)
		}
	}
	verify := func(path string) {
		t.Helper()
		out, err := exec.Command(osslsigncode, "verify", "-in", path, "-CAfile", winFiles.CA).CombinedOutput()
		if err != nil || !strings.Contains(string(out), "Succeeded") {
			t.Errorf("osslsigncode verify %s: %v\n%s", filepath.Base(path), err, out)
		}
	}

	var trees [2]map[string][]byte
	var cfg Config
	for i := range trees {
		cfg = baseConfig(t)
		cfg.Version, cfg.Kinds = "1.2.3", []string{"pkg", "msi", standaloneDarwin}
		// The shared release staged a ctrld for every platform already.
		cfg.CtrldDir = filepath.Join(sharedDemoDist(t).Work, "bin")
		cfg.Signing = Signing{Windows: ids.Windows, Pkg: ids.Pkg, MachO: ids.MachO}
		var progress bytes.Buffer
		cfg.Progress = &progress
		arts, err := Dist(cfg)
		if err != nil {
			t.Fatalf("signed dist %d: %v", i, err)
		}
		if len(arts) != 2+len(MsiArches) {
			t.Fatalf("signed dist %d: %d artifacts", i, len(arts))
		}
		for _, a := range arts {
			if !a.Signed {
				t.Errorf("%s: not signed", a.Name)
			}
		}
		if !strings.Contains(progress.String(), "pkg: Mach-O files code-signed with certificate") {
			t.Errorf("progress does not say the Mach-O files are code-signed:\n%s", progress.String())
		}
		if strings.Contains(progress.String(), "unsigned") || strings.Contains(progress.String(), "not code-signed") {
			t.Errorf("progress says unsigned:\n%s", progress.String())
		}
		leaks("the progress log", progress.Bytes())
		if trees[i], err = readTree(cfg.Out); err != nil {
			t.Fatal(err)
		}
	}
	if err := compareTrees(trees[0], trees[1]); err != nil {
		t.Error(err)
	}

	for _, arch := range MsiArches {
		exe := cfg.WrapperPath(Platform{"windows", arch})
		verify(exe)
		data, _ := os.ReadFile(exe)
		leaks(exe, data)
	}
	for name, data := range trees[0] {
		leaks(name, data)
		path := filepath.Join(cfg.Out, name)
		switch filepath.Ext(name) {
		case ".msi":
			verify(path)
			out := t.TempDir()
			if msg, err := exec.Command(msiextract, "-C", out, path).CombinedOutput(); err != nil {
				t.Fatalf("msiextract %s: %v\n%s", name, err, msg)
			}
			checkSignedUnder(t, out, "ctrld-install.exe", verify)
		case ".pkg":
			checkPkgSignedBy(t, path, data, mac.Chain()[0].Raw)
			checkPkgCodeSigned(t, data, app)
		case ".zip":
			checkZipCodeSigned(t, data, app)
		}
	}
}

// checkZipCodeSigned reads the admin's ctrld-install for macOS: each
// slice of the one universal file in the zip carries a code signature by
// leaf, with the hardened runtime.
func checkZipCodeSigned(t *testing.T, data []byte, leaf *signingtest.Leaf) {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil || len(zr.File) != 1 {
		t.Fatalf("zip: %v (%d files)", err, len(zr.File))
	}
	f, err := zr.File[0].Open()
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	bin, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	checkCodeSigned(t, zr.File[0].Name, bin, leaf)
}

// checkPkgCodeSigned reads every Mach-O file of the pkg's payload: each
// slice carries a code signature by leaf, with the hardened runtime.
func checkPkgCodeSigned(t *testing.T, data []byte, leaf *signingtest.Leaf) {
	t.Helper()
	cr, files := pkgPayloadReader(t, data), 0
	for {
		h, err := cr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(cr)
		if len(body) == 0 {
			continue
		}
		files++
		checkCodeSigned(t, h.Name, body, leaf)
	}
	if files != 2 {
		t.Errorf("%d files in the payload", files)
	}
}

// checkCodeSigned reads a universal Mach-O file: both slices carry a code
// signature by leaf, with the hardened runtime.
func checkCodeSigned(t *testing.T, name string, body []byte, leaf *signingtest.Leaf) {
	t.Helper()
	roots := x509.NewCertPool()
	roots.AddCert(leaf.PKI.Root)
	cs, err := codesign.NewReader(body, roots)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for slices := 0; ; slices++ {
		sig, err := cs.Next()
		if err == io.EOF {
			if slices != 2 {
				t.Errorf("%s: %d slices", name, slices)
			}
			return
		}
		if err != nil || !sig.Leaf.Equal(leaf.Cert) || !sig.Runtime() {
			t.Fatalf("%s: %+v, %v", name, sig, err)
		}
	}
}

// checkSignedUnder verifies the one file called name under dir.
func checkSignedUnder(t *testing.T, dir, name string, verify func(string)) {
	t.Helper()
	found := 0
	filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err == nil && info.Name() == name {
			found++
			verify(path)
		}
		return nil
	})
	if found != 1 {
		t.Errorf("%d copies of %s in the MSI", found, name)
	}
}

// checkPkgSignedBy reads the pkg's signatures back: an RSA and a CMS
// signature, the RSA one verifying over the TOC digest with the leaf.
func checkPkgSignedBy(t *testing.T, path string, data, leaf []byte) {
	t.Helper()
	r, err := xar.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	styles := map[string]bool{}
	for _, s := range r.Signatures() {
		styles[s.Style] = true
	}
	if !styles[xar.StyleRSA] || !styles[xar.StyleCMS] || len(styles) != 2 {
		t.Errorf("%s: signature styles %v, want RSA and CMS", path, styles)
	}
	cert, err := r.VerifyRSA()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if !bytes.Equal(cert.Raw, leaf) {
		t.Errorf("%s: signed by %s, not the installer leaf", path, cert.Subject)
	}
}
