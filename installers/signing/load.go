package signing

import (
	"bytes"
	"crypto"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"os"

	"software.sslmate.com/src/go-pkcs12"
)

// LoadPEM reads a certificate file (the chain, leaf first, as PEM
// CERTIFICATE blocks) and an unencrypted PEM private key (PKCS#1, PKCS#8
// or SEC 1).
func LoadPEM(certFile, keyFile string) (*Identity, error) {
	chain, err := readCertificates(certFile)
	if err != nil {
		return nil, err
	}
	key, err := readKey(keyFile)
	if err != nil {
		return nil, err
	}
	return &Identity{Chain: chain, Key: key}, nil
}

func readCertificates(path string) ([]*x509.Certificate, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w: certificate file: %v", ErrIdentity, err)
	}
	var chain []*x509.Certificate
	for {
		var block *pem.Block
		block, data = pem.Decode(data)
		if block == nil {
			break
		}
		if block.Type != "CERTIFICATE" {
			return nil, fmt.Errorf("%w: %s: a %q block in the certificate file: it holds certificates only", ErrIdentity, path, block.Type)
		}
		c, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: certificate %d: %v", ErrIdentity, path, len(chain)+1, err)
		}
		chain = append(chain, c)
	}
	if len(chain) == 0 {
		return nil, fmt.Errorf("%w: %s: no PEM certificate found", ErrIdentity, path)
	}
	return chain, nil
}

// readKey never puts the file's bytes or a parser's view of them into an
// error: only the path and the kind of problem.
func readKey(path string) (crypto.Signer, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w: key file: %v", ErrIdentity, err)
	}
	defer clear(data)
	block, _ := pem.Decode(data)
	if block == nil {
		return nil, fmt.Errorf("%w: %s: no PEM private key found", ErrIdentity, path)
	}
	defer clear(block.Bytes)
	if block.Type == "ENCRYPTED PRIVATE KEY" || block.Headers["Proc-Type"] != "" {
		return nil, fmt.Errorf("%w: %s: encrypted PEM keys are not supported: decrypt it, or use a PKCS#12 file with its password", ErrIdentity, path)
	}
	key, ok := parseKey(block.Bytes)
	if !ok {
		return nil, fmt.Errorf("%w: %s: the %q block is not an RSA or ECDSA private key", ErrIdentity, path, block.Type)
	}
	return key, nil
}

func parseKey(der []byte) (crypto.Signer, bool) {
	if k, err := x509.ParsePKCS1PrivateKey(der); err == nil {
		return k, true
	}
	if k, err := x509.ParseECPrivateKey(der); err == nil {
		return k, true
	}
	k, err := x509.ParsePKCS8PrivateKey(der)
	if err != nil {
		return nil, false
	}
	s, ok := k.(crypto.Signer)
	return s, ok
}

// LoadPKCS12 reads a .pfx/.p12 file holding the key, its certificate and
// the issuing chain in any order.
func LoadPKCS12(path, password string) (*Identity, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w: PKCS#12 file: %v", ErrIdentity, err)
	}
	defer clear(data)
	key, leaf, cas, err := pkcs12.DecodeChain(data, password)
	if err == pkcs12.ErrIncorrectPassword {
		return nil, fmt.Errorf("%w: %s: wrong PKCS#12 password", ErrIdentity, path)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %s: not a readable PKCS#12 file with one key and certificate", ErrIdentity, path)
	}
	signer, ok := key.(crypto.Signer)
	if !ok {
		return nil, fmt.Errorf("%w: %s: the key is not an RSA or ECDSA private key", ErrIdentity, path)
	}
	return &Identity{Chain: orderChain(leaf, cas), Key: signer}, nil
}

// orderChain puts the issuers after the leaf in issuing order; issuers
// that belong to no path from the leaf follow, as given.
func orderChain(leaf *x509.Certificate, rest []*x509.Certificate) []*x509.Certificate {
	chain := []*x509.Certificate{leaf}
	left := append([]*x509.Certificate(nil), rest...)
	for {
		last := chain[len(chain)-1]
		if bytes.Equal(last.RawIssuer, last.RawSubject) {
			break
		}
		i := indexOfIssuer(last, left)
		if i < 0 {
			break
		}
		chain = append(chain, left[i])
		left = append(left[:i], left[i+1:]...)
	}
	return append(chain, left...)
}

func indexOfIssuer(c *x509.Certificate, candidates []*x509.Certificate) int {
	for i, p := range candidates {
		if bytes.Equal(c.RawIssuer, p.RawSubject) && c.CheckSignatureFrom(p) == nil {
			return i
		}
	}
	return -1
}
