package windows

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/testenv"
)

// selfSigned writes a throwaway code-signing certificate and key (PEM).
func selfSigned(t *testing.T) (cert, key string) {
	priv, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "ctrld-install test signer"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageCodeSigning},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &priv.PublicKey, priv)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, _ := x509.MarshalPKCS8PrivateKey(priv)
	dir := t.TempDir()
	cert, key = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	os.WriteFile(cert, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	os.WriteFile(key, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), 0o600)
	return cert, key
}

func TestAuthenticodeSigning(t *testing.T) {
	osslsigncode := testenv.RequireTool(t, "osslsigncode")
	cert, key := selfSigned(t)
	dir := t.TempDir()
	ctrld := filepath.Join(dir, "ctrld.exe")
	wrapper := testenv.GoBuild(t, dir, "ctrld-install.exe", "./wrapper", "GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0")
	os.WriteFile(ctrld, []byte("MZ fake ctrld"), 0o755)
	p := pkg(ArchX64, ctrld, wrapper)
	p.Cert, p.Key = cert, key
	msi := buildMSI(t, p)

	verify := func(path string) {
		t.Helper()
		out, err := exec.Command(osslsigncode, "verify", "-CAfile", cert, "-in", path).CombinedOutput()
		if err != nil || !strings.Contains(string(out), "Signature verification: ok") {
			t.Errorf("%s: %v\n%s", filepath.Base(path), err, out)
		}
	}
	verify(msi)
	extracted := t.TempDir()
	tool(t, "msiextract", "-C", extracted, msi)
	verify(filepath.Join(extracted, "ControlD", "ctrld-install.exe"))
}
