package release

import "github.com/ctrld-install/ctrld-install/installers/signing"

// Signer is how one kind's installers are signed. Each kind's installer
// takes its own signer type; a kind with no signer ships unsigned and the
// release prints one line saying so.
type Signer interface {
	// What names the key or identity (never a secret), for the progress.
	What() string
}

// IdentitySigner signs with a certificate chain and its leaf's key, in
// Go: the pkg's xar signature, Authenticode for the MSI.
type IdentitySigner struct{ Identity *signing.Identity }

func (s *IdentitySigner) What() string { return "certificate " + s.Identity.Leaf().Subject.String() }

func identitySigner(id *signing.Identity) Signer {
	if id == nil {
		return nil
	}
	return &IdentitySigner{Identity: id}
}

func pkgSigner(s Signing) Signer { return identitySigner(s.Pkg) }

func msiSigner(s Signing) Signer { return identitySigner(s.Windows) }

// GPGSigner signs deb and rpm packages with an armored private key file.
type GPGSigner struct{ KeyFile, Passphrase string }

func (s *GPGSigner) What() string { return "GPG key " + s.KeyFile }

func gpgSigner(s Signing) Signer {
	if s.PackageGPGKey == "" {
		return nil
	}
	return &GPGSigner{KeyFile: s.PackageGPGKey, Passphrase: s.PackageGPGPassphrase}
}

// identityOf is the kind's identity, nil when it builds unsigned.
func identityOf(s Signer) *signing.Identity {
	if is, ok := s.(*IdentitySigner); ok {
		return is.Identity
	}
	return nil
}
