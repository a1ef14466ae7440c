package windows

import (
	"crypto/sha1"
	"crypto/sha256"
	"fmt"
	"io"

	"github.com/ctrld-install/ctrld-install/installers/windows/msidb"
)

// msiCodes are the MSI's GUIDs. They derive from the inputs, so the same
// inputs give the same MSI: the ProductCode changes with the version (each
// version is a major upgrade) and the architecture (32- and 64-bit
// packages must differ), component GUIDs only with the architecture (the
// components keep their identity across versions) and, for ctrld's, with
// the line's binary name: a component's key file keeps its name, so
// ctrld.exe and ctrld-client.exe are two components.
type msiCodes struct {
	ProductCode, Ctrld, Wrapper string
}

func (p Package) codes() msiCodes {
	return msiCodes{
		ProductCode: guid("product", p.Version, p.Arch),
		Ctrld:       guid("component", p.ctrldName(), p.Arch),
		Wrapper:     guid("component", "ctrld-install", p.Arch),
	}
}

// packageCode (the summary's Revision Number) changes with any byte of the
// package: it hashes the files' content and every table.
func packageCode(files []byte, tables []msidb.Table) string {
	h := sha256.New()
	h.Write(files)
	for _, t := range tables {
		fmt.Fprintf(h, "%q %v %#v\n", t.Name, t.Columns, t.Rows)
	}
	return guid("package", fmt.Sprintf("%x", h.Sum(nil)))
}

// guid is a name-based (version 5) UUID under the product's UpgradeCode.
func guid(parts ...string) string {
	h := sha1.New()
	io.WriteString(h, UpgradeCode)
	for _, p := range parts {
		io.WriteString(h, "\x00"+p)
	}
	u := h.Sum(nil)[:16]
	u[6] = u[6]&0x0f | 0x50
	u[8] = u[8]&0x3f | 0x80
	return fmt.Sprintf("{%X-%X-%X-%X-%X}", u[0:4], u[4:6], u[6:8], u[8:10], u[10:16])
}
