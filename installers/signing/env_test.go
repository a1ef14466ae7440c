//go:build !windows

// A missing key file is refused with the OS's own words, which the
// "missing file" case spells as Unix does.

package signing_test

import (
	"crypto/x509"
	"encoding/pem"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"software.sslmate.com/src/go-pkcs12"

	"github.com/ctrld-install/ctrld-install/installers/signing"
	"github.com/ctrld-install/ctrld-install/installers/signing/signingtest"
)

func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func TestFromEnvNothingSetSignsNothing(t *testing.T) {
	t.Parallel()
	cfg, err := signing.FromEnv(env(nil))
	if err != nil || cfg.Windows != nil || cfg.Pkg != nil || cfg.MachO != nil {
		t.Fatalf("FromEnv() = %+v, %v; want no identities", cfg, err)
	}
}

func TestFromEnvLoadsPEMAndPKCS12(t *testing.T) {
	t.Parallel()
	pki := signingtest.NewPKI(t)
	win, mac := pki.Leaf(t, signingtest.Windows()), pki.Leaf(t, signingtest.Installer())
	winFiles := win.Write(t, mkdir(t, "win"))
	pfx := writePFX(t, mac, "s3cret pass")
	cfg, err := signing.FromEnv(env(map[string]string{
		signing.EnvWindowsCert: winFiles.Cert, signing.EnvWindowsKey: winFiles.Key,
		signing.EnvPkgPFX: pfx, signing.EnvPkgPFXPassword: "s3cret pass",
		signing.EnvTimestampURL: "http://tsa.example/",
	}))
	if err != nil {
		t.Fatal(err)
	}
	checkIdentity(t, cfg.Windows, win)
	checkIdentity(t, cfg.Pkg, mac)
	if cfg.MachO != nil {
		t.Error("a Mach-O identity loaded from no Mach-O variables")
	}
	if cfg.Windows.TimestampURL != "http://tsa.example/" || cfg.Pkg.Timestamper() == nil {
		t.Error("the timestamp URL was not passed on")
	}
}

func TestFromEnvLoadsTheMachOIdentity(t *testing.T) {
	t.Parallel()
	pki := signingtest.NewPKI(t)
	app := pki.Leaf(t, signingtest.Application())
	files := app.Write(t, mkdir(t, "app"))
	cfg, err := signing.FromEnv(env(map[string]string{
		signing.EnvMachOCert: files.Cert, signing.EnvMachOKey: files.Key, signing.EnvTimestampURL: "http://tsa.example/",
	}))
	if err != nil {
		t.Fatal(err)
	}
	checkIdentity(t, cfg.MachO, app)
	if cfg.Pkg != nil || cfg.MachO.TimestampURL != "http://tsa.example/" {
		t.Errorf("pkg identity %v, Mach-O timestamp URL %q", cfg.Pkg, cfg.MachO.TimestampURL)
	}
	cfg, err = signing.FromEnv(env(map[string]string{signing.EnvMachOPFX: writePFX(t, app, "pw"), signing.EnvMachOPFXPassword: "pw"}))
	if err != nil {
		t.Fatal(err)
	}
	checkIdentity(t, cfg.MachO, app)
}

func TestFromEnvKeepsTheOldMSINames(t *testing.T) {
	t.Parallel()
	pki := signingtest.NewPKI(t)
	win := pki.Leaf(t, signingtest.Windows())
	f := win.Write(t, t.TempDir())
	cfg, err := signing.FromEnv(env(map[string]string{signing.EnvOldMSICert: f.Cert, signing.EnvOldMSIKey: f.Key}))
	if err != nil {
		t.Fatal(err)
	}
	checkIdentity(t, cfg.Windows, win)
}

func checkIdentity(t *testing.T, got *signing.Identity, want *signingtest.Leaf) {
	t.Helper()
	if got == nil {
		t.Fatal("identity not loaded")
	}
	if len(got.Chain) != 3 || !got.Chain[0].Equal(want.Cert) || !got.Chain[1].Equal(want.PKI.Intermediate) || !got.Chain[2].Equal(want.PKI.Root) {
		t.Errorf("chain not leaf, intermediate, root: %d certificates", len(got.Chain))
	}
	if !want.Key.PublicKey.Equal(got.Key.Public()) {
		t.Error("wrong key loaded")
	}
}

// writePFX stores the chain in an unusual order: the loader must sort it.
func writePFX(t *testing.T, l *signingtest.Leaf, password string) string {
	t.Helper()
	data, err := pkcs12.Modern.Encode(l.Key, l.Cert, []*x509.Certificate{l.PKI.Root, l.PKI.Intermediate}, password)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "id.pfx")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func mkdir(t *testing.T, name string) string {
	dir := filepath.Join(t.TempDir(), name)
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestFromEnvRefusesBadSetUps(t *testing.T) {
	t.Parallel()
	pki := signingtest.NewPKI(t)
	win, mac := pki.Leaf(t, signingtest.Windows()), pki.Leaf(t, signingtest.Installer())
	expiredOpts := signingtest.Installer()
	expiredOpts.NotBefore, expiredOpts.NotAfter = time.Now().Add(-72*time.Hour), time.Now().Add(-24*time.Hour)
	expired := pki.Leaf(t, expiredOpts)
	wf, mf, ef := win.Write(t, mkdir(t, "w")), mac.Write(t, mkdir(t, "m")), expired.Write(t, mkdir(t, "e"))
	pfx := writePFX(t, mac, "right")
	encrypted := filepath.Join(t.TempDir(), "encrypted.pem")
	os.WriteFile(encrypted, pem.EncodeToMemory(&pem.Block{Type: "ENCRYPTED PRIVATE KEY", Bytes: []byte("opaque")}), 0o600)
	// The certificate file given as the key: its bytes must not be echoed.
	cases := []struct {
		name string
		vars map[string]string
		want string
	}{
		{"key of another certificate", map[string]string{signing.EnvWindowsCert: wf.Cert, signing.EnvWindowsKey: mf.Key}, "does not belong"},
		{"windows certificate for the pkg", map[string]string{signing.EnvPkgCert: wf.Cert, signing.EnvPkgKey: wf.Key}, "not a macOS installer signing certificate"},
		{"expired", map[string]string{signing.EnvPkgCert: ef.Cert, signing.EnvPkgKey: ef.Key}, "expired on"},
		{"cert without key", map[string]string{signing.EnvWindowsCert: wf.Cert}, "needs both"},
		{"PEM and PKCS#12", map[string]string{signing.EnvPkgCert: mf.Cert, signing.EnvPkgKey: mf.Key, signing.EnvPkgPFX: pfx}, "not both"},
		{"wrong password", map[string]string{signing.EnvPkgPFX: pfx, signing.EnvPkgPFXPassword: "wrong"}, "wrong PKCS#12 password"},
		{"certificate as key", map[string]string{signing.EnvWindowsCert: wf.Cert, signing.EnvWindowsKey: wf.Cert}, "not an RSA or ECDSA private key"},
		{"key as certificate", map[string]string{signing.EnvWindowsCert: wf.Key, signing.EnvWindowsKey: wf.Key}, "holds certificates only"},
		{"encrypted PEM key", map[string]string{signing.EnvWindowsCert: wf.Cert, signing.EnvWindowsKey: encrypted}, "encrypted PEM keys are not supported"},
		{"missing file", map[string]string{signing.EnvWindowsCert: wf.Cert, signing.EnvWindowsKey: "/nonexistent/key.pem"}, "no such file"},
		{"old productsign identity", map[string]string{signing.EnvOldPkgIdentity: "Developer ID Installer: X"}, "no longer used"},
		{"bad timestamp URL", map[string]string{signing.EnvTimestampURL: "tsa.example"}, "RFC 3161"},
		{"installer certificate for Mach-O", map[string]string{signing.EnvMachOCert: mf.Cert, signing.EnvMachOKey: mf.Key}, "Developer ID Installer certificate (it signs packages, not code"},
		{"Mach-O cert without key", map[string]string{signing.EnvMachOCert: mf.Cert}, "Mach-O signing needs both CTRLD_SIGN_MACHO_CERT and CTRLD_SIGN_MACHO_KEY"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := signing.FromEnv(env(c.vars))
			if err == nil || !errors.Is(err, signing.ErrIdentity) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("FromEnv = %v, want an identity error containing %q", err, c.want)
			}
			for _, l := range []*signingtest.Leaf{win, mac, expired} {
				if l.Leaks(t, []byte(err.Error())) {
					t.Fatalf("error carries key material: %v", err)
				}
			}
		})
	}
}
