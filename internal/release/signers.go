package release

import "github.com/ctrld-install/ctrld-install/installers/signing"

// Each kind's installer takes its own signing input from Signing; these
// name that input (never a secret) for the progress, empty when the kind
// builds unsigned and the release prints one line saying so.

// certificate names an identity by its leaf: the pkg's xar signature and
// Authenticode for the MSI are made in Go with it.
func certificate(id *signing.Identity) string {
	if id == nil {
		return ""
	}
	return "certificate " + id.Leaf().Subject.String()
}

func pkgSignedBy(s Signing) string { return certificate(s.Pkg) }

func machOSignedBy(s Signing) string { return certificate(s.MachO) }

func msiSignedBy(s Signing) string { return certificate(s.Windows) }

// gpgSignedBy names the armored private key file that signs deb and rpm.
func gpgSignedBy(s Signing) string {
	if s.PackageGPGKey == "" {
		return ""
	}
	return "GPG key " + s.PackageGPGKey
}
