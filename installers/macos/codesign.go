package macos

import (
	"fmt"
	"os"
	"time"

	"github.com/ctrld-install/ctrld-install/installers/macos/codesign"
	"github.com/ctrld-install/ctrld-install/installers/signing"
)

// Code-signing identifiers: what each program's signature and designated
// requirement name it.
const (
	WrapperCodeIdentifier = "com.controld.ctrld-install"
	CtrldCodeIdentifier   = "com.controld.ctrld"
)

// checkCodeSigner fails unless the Mach-O identity, when set, can sign
// code at time now.
func (p Package) checkCodeSigner(now time.Time) error {
	if p.CodeSigner == nil {
		return nil
	}
	if err := p.CodeSigner.Check(signing.MacCode, now); err != nil {
		return fmt.Errorf("macos pkg: Mach-O signing: %w", err)
	}
	return nil
}

// codeSign signs every slice of the Mach-O file at path into out and
// returns out; without a Mach-O identity it returns path unchanged. A
// ctrld its publisher signed keeps that signature (keepSigned).
func (p Package) codeSign(path, out, identifier string, keepSigned bool) (string, error) {
	if p.CodeSigner == nil {
		return path, nil
	}
	if err := SignCode(p.CodeSigner, path, out, identifier, p.MTime, keepSigned); err != nil {
		return "", fmt.Errorf("macos pkg: code-sign %s: %w", identifier, err)
	}
	return out, nil
}

// SignCode code-signs the thin or universal Mach-O file in into out with
// a Developer ID Application identity: the hardened runtime, the
// identifier and its designated requirement, the signing time when and
// the identity's timestamp. With keepSigned, slices their publisher
// signed keep that signature.
func SignCode(id *signing.Identity, in, out, identifier string, when time.Time, keepSigned bool) error {
	data, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	s := &codesign.Signer{Chain: id.Chain, Key: id.Key, Identifier: identifier, SigningTime: when,
		Timestamper: id.Timestamper(), KeepSigned: keepSigned}
	signed, err := s.SignFile(data)
	if err != nil {
		return err
	}
	info, err := os.Stat(in)
	if err != nil {
		return err
	}
	return os.WriteFile(out, signed, info.Mode().Perm())
}
