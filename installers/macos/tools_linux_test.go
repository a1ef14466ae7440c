//go:build linux

// These read the package with GNU cpio and OpenSSL 3 (cms, ts), the
// tools of the Linux images; macOS ships bsdcpio and LibreSSL instead.

package macos

import (
	"bytes"
	"crypto/sha1"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/installers/signing/signingtest"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// bsdtar (libarchive) checks the TOC digest and, on extraction, every
// member's checksums; GNU cpio reads the Payload and Scripts.
func TestRealToolsReadThePackage(t *testing.T) {
	t.Parallel()
	bsdtar := testenv.RequireTool(t, "bsdtar")
	gnucpio := testenv.RequireTool(t, "cpio")
	p, pkg := testPackage(t), sharedUnsignedPkg(t)
	out, err := exec.Command(bsdtar, "-tvf", pkg).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "ctrld.pkg/Payload") || !strings.Contains(string(out), "Distribution") {
		t.Fatalf("bsdtar -tvf: %v\n%s", err, out)
	}
	dir := t.TempDir()
	if out, err := exec.Command(bsdtar, "-xf", pkg, "-C", dir).CombinedOutput(); err != nil {
		t.Fatalf("bsdtar -xf: %v\n%s", err, out)
	}
	root := t.TempDir()
	for _, member := range []string{"Payload", "Scripts"} {
		listing := exec.Command("sh", "-c", "gzip -dc "+filepath.Join(dir, "ctrld.pkg", member)+" | "+gnucpio+" -t --quiet")
		if out, err := listing.CombinedOutput(); err != nil || len(out) == 0 {
			t.Fatalf("cpio -t %s: %v\n%s", member, err, out)
		}
		extract := exec.Command("sh", "-c", "gzip -dc "+filepath.Join(dir, "ctrld.pkg", member)+" | "+gnucpio+" -idm --quiet")
		extract.Dir = root
		if out, err := extract.CombinedOutput(); err != nil {
			t.Fatalf("cpio -i %s: %v\n%s", member, err, out)
		}
	}
	ctrld, _ := os.ReadFile(filepath.Join(root, InstallDir, "ctrld"))
	checkUniversal(t, ctrld, p.Ctrld)
	wrapper, _ := os.ReadFile(filepath.Join(root, InstallDir, "ctrld-install"))
	checkUniversal(t, wrapper, p.Wrapper)
	script, _ := os.ReadFile(filepath.Join(root, "postinstall"))
	if !bytes.Equal(script, postinstall) {
		t.Fatal("postinstall differs after extraction")
	}
}

// OpenSSL checks both signatures on its own: the RSA one over the
// compressed TOC (the same as a SHA-1 DigestInfo over its digest), the
// CMS one detached over the digest bytes with the test root as the only
// trust anchor.
func TestOpenSSLVerifiesTheSignatures(t *testing.T) {
	t.Parallel()
	openssl := testenv.RequireTool(t, "openssl")
	path, leaf := sharedSignedPkg(t)
	raw := takeApart(t, readBytes(t, path))
	dir := t.TempDir()
	files := leaf.Write(t, dir)
	put := func(name string, data []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	run := func(args ...string) (string, error) {
		out, err := exec.Command(openssl, args...).CombinedOutput()
		return string(out), err
	}
	leafPEM := put("leaf.pem", signingtest.PEM(leaf.Cert))
	if out, err := run("x509", "-in", leafPEM, "-noout", "-pubkey", "-out", filepath.Join(dir, "leaf.pub")); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	toc := raw.toc
	ztoc := put("toc.z", raw.ztoc)
	rsaSig := put("rsa.bin", raw.slot(toc.RSA.Offset, toc.RSA.Size))
	digest := put("digest.bin", raw.slot(toc.Checksum.Offset, toc.Checksum.Size))
	cmsSlot := put("cms.der", raw.slot(toc.CMS.Offset, toc.CMS.Size))

	if out, err := run("dgst", "-sha1", "-verify", filepath.Join(dir, "leaf.pub"), "-signature", rsaSig, ztoc); err != nil || !strings.Contains(out, "Verified OK") {
		t.Fatalf("openssl dgst -verify: %v\n%s", err, out)
	}
	cmsVerify := func(content string) (string, error) {
		return run("cms", "-verify", "-inform", "DER", "-in", cmsSlot, "-binary", "-content", content,
			"-CAfile", files.CA, "-purpose", "any", "-out", os.DevNull)
	}
	if out, err := cmsVerify(digest); err != nil || !strings.Contains(out, "Verification successful") {
		t.Fatalf("openssl cms -verify: %v\n%s", err, out)
	}
	printed, err := run("cms", "-cmsout", "-print", "-inform", "DER", "-in", cmsSlot)
	if err != nil {
		t.Fatalf("%v\n%s", err, printed)
	}
	for _, want := range []string{"eContent: <ABSENT>", "signingTime", "messageDigest", "sha256", "Throwaway Test Intermediate CA"} {
		if !strings.Contains(printed, want) {
			t.Errorf("CMS structure lacks %q", want)
		}
	}
	when := epoch.UTC().Format("Jan _2 15:04:05 2006")
	if !strings.Contains(printed, when) {
		t.Errorf("CMS signingTime is not the package's MTime (%s)", when)
	}

	// One flipped bit anywhere in the signed bytes fails.
	bad := bytes.Clone(raw.file)
	clen := len(raw.ztoc)
	bad[28+clen/2] ^= 1
	badZTOC := put("bad-toc.z", bad[28:28+clen])
	if sum := sha1.Sum(bad[28 : 28+clen]); bytes.Equal(sum[:], raw.slot(0, 20)) {
		t.Fatal("a changed TOC kept its digest")
	}
	if out, err := run("dgst", "-sha1", "-verify", filepath.Join(dir, "leaf.pub"), "-signature", rsaSig, badZTOC); err == nil {
		t.Fatalf("RSA signature verified over a changed TOC:\n%s", out)
	}
	badDigest := bytes.Clone(raw.slot(0, 20))
	badDigest[7] ^= 1
	if out, err := cmsVerify(put("bad-digest.bin", badDigest)); err == nil {
		t.Fatalf("CMS verified over a changed digest:\n%s", out)
	}
}

// With a time-stamping authority the CMS signature carries its token and
// still verifies.
func TestTimestampedPackage(t *testing.T) {
	t.Parallel()
	openssl := testenv.RequireTool(t, "openssl")
	p, leaf := signedPackage(t)
	p.Signer.TimestampURL = leaf.PKI.StartTSA(t, openssl)
	raw := takeApart(t, readBytes(t, buildPkg(t, p)))
	dir := t.TempDir()
	files := leaf.Write(t, dir)
	cms := filepath.Join(dir, "cms.der")
	digest := filepath.Join(dir, "digest.bin")
	os.WriteFile(cms, raw.slot(raw.toc.CMS.Offset, raw.toc.CMS.Size), 0o644)
	os.WriteFile(digest, raw.slot(0, 20), 0o644)
	out, err := exec.Command(openssl, "cms", "-verify", "-inform", "DER", "-in", cms, "-binary", "-content", digest,
		"-CAfile", files.CA, "-purpose", "any", "-out", os.DevNull).CombinedOutput()
	if err != nil {
		t.Fatalf("openssl cms -verify: %v\n%s", err, out)
	}
	printed, _ := exec.Command(openssl, "cms", "-cmsout", "-print", "-inform", "DER", "-in", cms).CombinedOutput()
	if !strings.Contains(string(printed), "id-smime-aa-timeStampToken") {
		t.Fatal("no timestamp token in the CMS signature")
	}
}
