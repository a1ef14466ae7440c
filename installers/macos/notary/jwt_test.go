package notary

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// Only a PKCS#8 P-256 key loads, and a refusal names the file, never
// the key's bytes.
func TestLoadKeyTakesOnlyAppStoreConnectKeys(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, key any, blockType string) (string, string) {
		der, err := x509.MarshalPKCS8PrivateKey(key)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: blockType, Bytes: der}), 0o600)
		return path, base64.StdEncoding.EncodeToString(der)
	}
	p256, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	p384, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	rsaKey, _ := rsa.GenerateKey(rand.Reader, 2048)
	good, _ := write("AuthKey_GOOD.p8", p256, "PRIVATE KEY")
	if _, err := loadKey(good); err != nil {
		t.Fatalf("a P-256 .p8 key: %v", err)
	}
	for name, c := range map[string]struct {
		key       any
		blockType string
	}{
		"p384.p8": {p384, "PRIVATE KEY"}, "rsa.p8": {rsaKey, "PRIVATE KEY"}, "sec1.p8": {p256, "EC PRIVATE KEY"},
	} {
		path, secret := write(name, c.key, c.blockType)
		_, err := loadKey(path)
		if err == nil || !strings.Contains(err.Error(), path) || testenv.HoldsPartOf([]byte(err.Error()), secret) {
			t.Errorf("%s: err = %v", name, err)
		}
	}
}
