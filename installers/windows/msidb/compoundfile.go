package msidb

import (
	"io"

	"github.com/ctrld-install/ctrld-install/installers/windows/cfb"
)

// InstallerCLSID marks a compound file's root storage as an installation
// database: {000C1084-0000-0000-C000-000000000046}.
var InstallerCLSID = [16]byte{0x84, 0x10, 0x0c, 0x00, 0x00, 0x00, 0x00, 0x00, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x46}

// CompoundFile adapts a compound file reader to a Storage.
func CompoundFile(r *cfb.Reader) Storage { return compoundFile{r} }

type compoundFile struct{ r *cfb.Reader }

func (c compoundFile) Names() []string {
	var names []string
	for _, s := range c.r.Streams() {
		names = append(names, s.Name)
	}
	return names
}

func (c compoundFile) Open(name string) (io.Reader, error) { return c.r.Open(name) }
