package windows

import (
	"io"
	"os"
	"path/filepath"

	"github.com/ctrld-install/ctrld-install/installers/signing"
)

// signedName is the MSI's name in the work folder while it is signed.
const signedName = "signed.msi"

// writeSigned writes the MSI into work, signs it there and copies it to
// w: the signature covers every stream, so it is computed over the
// finished file, and SignMSI works on a file.
func (p Package) writeSigned(w io.Writer, plat platform, work string) error {
	path := filepath.Join(work, signedName)
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := p.write(f, plat, p.Wrapper, work); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := signing.SignMSI(p.Signer, path); err != nil {
		return err
	}
	info, err := os.Stat(path)
	if err != nil {
		return err
	}
	return copyFrom(w, path, info.Size())
}
