package windows

import (
	"crypto/sha1"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
)

// msiCodes are the MSI's GUIDs. They derive from the inputs, so the same
// inputs give the same MSI: the ProductCode changes with the version (each
// version is a major upgrade), the PackageCode with any byte of content,
// and component GUIDs never (the components keep their identity).
type msiCodes struct {
	ProductCode, PackageCode, Ctrld, Wrapper string
}

func (p Package) codes(wrapper string) (msiCodes, error) {
	content := sha256.New()
	for _, f := range []string{p.Ctrld, wrapper} {
		if err := hashFile(content, f); err != nil {
			return msiCodes{}, err
		}
	}
	fmt.Fprintf(content, "%s|%s|%d", p.Version, p.Arch, p.MTime.Unix())
	return msiCodes{
		ProductCode: guid("product", p.Version, p.Arch),
		PackageCode: guid("package", fmt.Sprintf("%x", content.Sum(nil))),
		Ctrld:       guid("component", "ctrld", p.Arch),
		Wrapper:     guid("component", "ctrld-install", p.Arch),
	}, nil
}

func hashFile(w io.Writer, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(w, f)
	return err
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
