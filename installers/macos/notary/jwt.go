package notary

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"time"
)

// App Store Connect's token rules: ES256, the key id in the header, the
// issuer id, issued-at and expiry in the claims, this audience, and an
// expiry at most 20 minutes after issue.
const (
	tokenAudience = "appstoreconnect-v1"
	tokenLifetime = 15 * time.Minute
	maxKeyFile    = 16 << 10
)

// tokenMaker signs a fresh token for every request, so a wait longer
// than a token's life never reuses an expired one.
type tokenMaker struct {
	issuer, keyID string
	key           *ecdsa.PrivateKey
	now           func() time.Time
}

// loadKey reads the .p8 file App Store Connect hands out: a PEM
// "PRIVATE KEY" block, PKCS#8, holding a P-256 key. Messages name the
// file, never its bytes.
func loadKey(path string) (*ecdsa.PrivateKey, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", KeyEnv, err)
	}
	if info.Size() > maxKeyFile {
		return nil, fmt.Errorf("%s %s: too large for a .p8 key", KeyEnv, path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", KeyEnv, err)
	}
	block, _ := pem.Decode(data)
	if block == nil || block.Type != "PRIVATE KEY" {
		return nil, fmt.Errorf("%s %s: not a .p8 key (a PEM PRIVATE KEY block)", KeyEnv, path)
	}
	parsed, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("%s %s: not a PKCS#8 key", KeyEnv, path)
	}
	key, ok := parsed.(*ecdsa.PrivateKey)
	if !ok || key.Curve != elliptic.P256() {
		return nil, fmt.Errorf("%s %s: App Store Connect keys are P-256 ECDSA keys", KeyEnv, path)
	}
	return key, nil
}

type tokenHeader struct {
	Alg string `json:"alg"`
	Kid string `json:"kid"`
	Typ string `json:"typ"`
}

// tokenClaims carries no scope: the claim is optional, and a token
// without one is good for every endpoint the key's role allows.
type tokenClaims struct {
	Iss string `json:"iss"`
	Iat int64  `json:"iat"`
	Exp int64  `json:"exp"`
	Aud string `json:"aud"`
}

// token is a JWS compact serialisation: base64url header, claims and
// the ES256 signature, which is r and s as 32 big-endian bytes each.
func (m tokenMaker) token() (string, error) {
	now := m.now()
	header, err := json.Marshal(tokenHeader{Alg: "ES256", Kid: m.keyID, Typ: "JWT"})
	if err != nil {
		return "", err
	}
	claims, err := json.Marshal(tokenClaims{Iss: m.issuer, Iat: now.Unix(), Exp: now.Add(tokenLifetime).Unix(), Aud: tokenAudience})
	if err != nil {
		return "", err
	}
	enc := base64.RawURLEncoding
	signingInput := enc.EncodeToString(header) + "." + enc.EncodeToString(claims)
	digest := sha256.Sum256([]byte(signingInput))
	r, s, err := ecdsa.Sign(rand.Reader, m.key, digest[:])
	if err != nil {
		return "", errors.New("signing the API token failed")
	}
	sig := make([]byte, 64)
	r.FillBytes(sig[:32])
	s.FillBytes(sig[32:])
	return signingInput + "." + enc.EncodeToString(sig), nil
}
