//go:build linux

package macos

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/installers/macos/notary"
	"github.com/ctrld-install/ctrld-install/installers/macos/notary/notarytest"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// A stapled package passes every reader the package passes: the
// project's xar reader (TOC digest, RSA signature, every member's
// checksums), bsdtar listing and extracting byte-identical members, GNU
// cpio reading the Payload, and OpenSSL verifying both signatures over
// the unchanged TOC digest.
func TestStapledPackageReadsAsBefore(t *testing.T) {
	t.Parallel()
	bsdtar := testenv.RequireTool(t, "bsdtar")
	gnucpio := testenv.RequireTool(t, "cpio")
	openssl := testenv.RequireTool(t, "openssl")
	signed, leaf := sharedSignedPkg(t)
	original := readBytes(t, signed)
	path := filepath.Join(t.TempDir(), filepath.Base(signed))
	if err := os.WriteFile(path, original, 0o644); err != nil {
		t.Fatal(err)
	}
	fake := notarytest.New(t)
	cfg, err := notary.FromEnv(fake.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Interval = 10 * time.Millisecond
	var out bytes.Buffer
	if err := notary.Notarize(context.Background(), cfg, path, &out); err != nil {
		t.Fatalf("%v\n%s", err, &out)
	}
	if err := notary.Staple(context.Background(), cfg, path, &out); err != nil {
		t.Fatalf("%v\n%s", err, &out)
	}
	stapled := readBytes(t, path)
	if len(stapled) <= len(original) || !bytes.HasPrefix(stapled, original) {
		t.Fatal("stapling did not append to the package")
	}

	// The project's reader.
	r, before := openPkg(t, path), openPkg(t, signed)
	if _, err := r.VerifyRSA(); err != nil {
		t.Fatalf("RSA signature after stapling: %v", err)
	}
	for _, h := range before.Members() {
		if h.Type != "file" {
			continue
		}
		got, err := r.ReadFile(h.Name)
		want, _ := before.ReadFile(h.Name)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%s after stapling: %v", h.Name, err)
		}
	}

	// bsdtar and GNU cpio.
	if out, err := exec.Command(bsdtar, "-tvf", path).CombinedOutput(); err != nil || !strings.Contains(string(out), "ctrld.pkg/Payload") {
		t.Fatalf("bsdtar -tvf: %v\n%s", err, out)
	}
	dir := t.TempDir()
	if out, err := exec.Command(bsdtar, "-xf", path, "-C", dir).CombinedOutput(); err != nil {
		t.Fatalf("bsdtar -xf: %v\n%s", err, out)
	}
	for _, h := range before.Members() {
		if h.Type == "file" {
			want, _ := before.ReadFile(h.Name)
			if !bytes.Equal(readBytes(t, filepath.Join(dir, h.Name)), want) {
				t.Fatalf("bsdtar extracted %s differently", h.Name)
			}
		}
	}
	listing := exec.Command("sh", "-c", "gzip -dc "+filepath.Join(dir, "ctrld.pkg", "Payload")+" | "+gnucpio+" -t --quiet")
	if out, err := listing.CombinedOutput(); err != nil || !strings.Contains(string(out), "ctrld-install") {
		t.Fatalf("cpio -t Payload: %v\n%s", err, out)
	}

	// OpenSSL over the slots the stapled file's TOC names.
	raw := takeApart(t, stapled)
	files := leaf.Write(t, dir)
	cms, digest := filepath.Join(dir, "cms.der"), filepath.Join(dir, "digest.bin")
	os.WriteFile(cms, raw.slot(raw.toc.CMS.Offset, raw.toc.CMS.Size), 0o644)
	os.WriteFile(digest, raw.slot(raw.toc.Checksum.Offset, raw.toc.Checksum.Size), 0o644)
	verify := exec.Command(openssl, "cms", "-verify", "-inform", "DER", "-in", cms, "-binary", "-content", digest,
		"-CAfile", files.CA, "-purpose", "any", "-out", os.DevNull)
	if out, err := verify.CombinedOutput(); err != nil || !strings.Contains(string(out), "Verification successful") {
		t.Fatalf("openssl cms -verify after stapling: %v\n%s", err, out)
	}

	info, err := notary.Check(stapled)
	if err != nil || !bytes.Equal(info.Ticket, fake.Ticket()) {
		t.Fatalf("the ticket does not read back: %v", err)
	}
	for _, s := range fake.Secrets() {
		if testenv.HoldsPartOf(out.Bytes(), s) {
			t.Fatalf("output holds a secret:\n%s", &out)
		}
	}
}
