//go:build linux

package linux

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// throwawayKey makes a GPG key in a private keyring and returns the
// armored private and public key files.
func throwawayKey(t *testing.T) (private, public, home string) {
	t.Helper()
	gpg := testenv.RequireTool(t, "gpg")
	home = t.TempDir()
	env := append(os.Environ(), "GNUPGHOME="+home)
	gen := exec.Command(gpg, "--batch", "--passphrase", "", "--quick-gen-key", "ctrld-install test <test@example.invalid>", "rsa2048", "sign", "never")
	gen.Env = env
	if out, err := gen.CombinedOutput(); err != nil {
		t.Fatalf("gpg key: %v\n%s", err, out)
	}
	private, public = filepath.Join(home, "key.asc"), filepath.Join(home, "pub.asc")
	for file, arg := range map[string]string{private: "--export-secret-keys", public: "--export"} {
		exp := exec.Command(gpg, "--batch", "--armor", arg)
		exp.Env = env
		data, err := exp.Output()
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(file, data, 0o600)
	}
	return private, public, home
}

func TestSignedPackagesVerify(t *testing.T) {
	rpmkeys := testenv.RequireTool(t, "rpmkeys")
	bsdtar := testenv.RequireTool(t, "bsdtar")
	private, public, home := throwawayKey(t)
	ctrld, wrapper := fakeBinaries(t)
	p := Package{Name: "ctrld", Version: "1.0.0", Arch: "amd64", Ctrld: ctrld, Wrapper: wrapper, MTime: epoch, SigningKey: private}

	rpm := buildFile(t, p, "rpm")
	db := t.TempDir()
	exec.Command(rpmkeys, "--root", db, "--import", public).Run()
	if out, err := exec.Command(rpmkeys, "--root", db, "-K", rpm).CombinedOutput(); err != nil || !strings.Contains(string(out), "digests signatures OK") {
		t.Fatalf("rpm signature: %v %s", err, out)
	}
	if out, _ := exec.Command(rpmkeys, "--root", t.TempDir(), "-K", rpm).CombinedOutput(); !strings.Contains(string(out), "NOT OK") {
		t.Fatalf("rpm verified without the key: %s", out)
	}

	// A signed deb carries _gpgorigin: a detached signature over the other
	// members, concatenated.
	deb := buildFile(t, p, "deb")
	dir := t.TempDir()
	if out, err := exec.Command(bsdtar, "-xf", deb, "-C", dir).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	verify := exec.Command("sh", "-c", "cat debian-binary control.tar.* data.tar.* | gpg --batch --verify _gpgorigin -")
	verify.Dir = dir
	verify.Env = append(os.Environ(), "GNUPGHOME="+home)
	if out, err := verify.CombinedOutput(); err != nil || !strings.Contains(string(out), "Good signature") {
		t.Fatalf("deb signature: %v %s", err, out)
	}
}
