package release

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
)

// Signer is how one kind's installers are signed. Each kind's installer
// takes its own signer type; a kind with no signer ships unsigned and the
// release prints one line saying so.
type Signer interface {
	// What names the key or identity (never a secret), for the progress.
	What() string
}

// ProductSigner signs a macOS pkg with productsign and a keychain identity.
type ProductSigner struct{ Identity string }

func (s *ProductSigner) What() string { return "productsign identity " + s.Identity }

// Sign signs the pkg at path in place.
func (s *ProductSigner) Sign(path string) error {
	signed := path + ".signed"
	if out, err := exec.Command("productsign", "--sign", s.Identity, path, signed).CombinedOutput(); err != nil {
		return fmt.Errorf("productsign: %v\n%s", err, out)
	}
	return os.Rename(signed, path)
}

// pkgSigner: productsign exists only on macOS.
func pkgSigner(s Signing) Signer {
	if runtime.GOOS != "darwin" || s.PkgIdentity == "" {
		return nil
	}
	return &ProductSigner{Identity: s.PkgIdentity}
}

// AuthenticodeSigner signs the MSI and the wrapper inside it with a PEM
// certificate and key.
type AuthenticodeSigner struct{ Cert, Key string }

func (s *AuthenticodeSigner) What() string { return "Authenticode certificate " + s.Cert }

func msiSigner(s Signing) Signer {
	if s.MsiCert == "" || s.MsiKey == "" {
		return nil
	}
	return &AuthenticodeSigner{Cert: s.MsiCert, Key: s.MsiKey}
}

// GPGSigner signs deb and rpm packages with an armored private key file.
type GPGSigner struct{ KeyFile string }

func (s *GPGSigner) What() string { return "GPG key " + s.KeyFile }

func gpgSigner(s Signing) Signer {
	if s.PackageGPGKey == "" {
		return nil
	}
	return &GPGSigner{KeyFile: s.PackageGPGKey}
}
