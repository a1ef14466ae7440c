package macos

import (
	"fmt"
	"time"

	"github.com/ctrld-install/ctrld-install/installers/macos/xar"
	"github.com/ctrld-install/ctrld-install/installers/signing"
)

// xarSigner checks the package's signing identity at time now and turns
// it into the xar writer's signer: nil for an unsigned package.
func (p Package) xarSigner(now time.Time) (*xar.Signer, error) {
	if p.Signer == nil {
		return nil, nil
	}
	if err := p.Signer.Check(signing.MacInstaller, now); err != nil {
		return nil, fmt.Errorf("macos pkg: %w", err)
	}
	return &xar.Signer{
		Chain: p.Signer.Chain, Key: p.Signer.Key,
		SigningTime: p.MTime, Timestamper: p.Signer.Timestamper(),
	}, nil
}
