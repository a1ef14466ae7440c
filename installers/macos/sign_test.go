package macos

import (
	"bytes"
	"compress/zlib"
	"crypto"
	"crypto/rsa"
	"crypto/sha1"
	"crypto/x509"
	"encoding/base64"
	"encoding/binary"
	"encoding/xml"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/installers/signing/signingtest"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// signedTOC is the part of a signed TOC the verification reads. It is
// parsed here, apart from the xar package, so the check does not share
// the signing code's view of the format.
type signedTOC struct {
	Checksum struct {
		Style  string `xml:"style,attr"`
		Offset int64  `xml:"offset"`
		Size   int64  `xml:"size"`
	} `xml:"toc>checksum"`
	RSA slotElement `xml:"toc>signature"`
	CMS slotElement `xml:"toc>x-signature"`
	// Members in the component folder, and at the top.
	Data    []dataElement `xml:"toc>file>file>data"`
	TopData []dataElement `xml:"toc>file>data"`
}

type dataElement struct {
	Offset int64 `xml:"offset"`
	Length int64 `xml:"length"`
}

type slotElement struct {
	Style  string   `xml:"style,attr"`
	Offset int64    `xml:"offset"`
	Size   int64    `xml:"size"`
	Certs  []string `xml:"KeyInfo>X509Data>X509Certificate"`
}

// rawPkg is a signed package taken apart by hand, as §5.4 of the signing
// notes does with dd and xmllint.
type rawPkg struct {
	file, ztoc, heap []byte
	toc              signedTOC
}

func takeApart(t *testing.T, data []byte) rawPkg {
	t.Helper()
	if string(data[:4]) != "xar!" || binary.BigEndian.Uint16(data[4:]) != 28 || binary.BigEndian.Uint32(data[24:]) != 1 {
		t.Fatalf("header %x", data[:28])
	}
	clen := binary.BigEndian.Uint64(data[8:])
	p := rawPkg{file: data, ztoc: data[28 : 28+clen], heap: data[28+clen:]}
	zr, err := zlib.NewReader(bytes.NewReader(p.ztoc))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil || uint64(len(plain)) != binary.BigEndian.Uint64(data[16:]) {
		t.Fatalf("TOC: %v, %d bytes", err, len(plain))
	}
	if err := xml.Unmarshal(plain, &p.toc); err != nil {
		t.Fatal(err)
	}
	return p
}

func (p rawPkg) slot(offset, size int64) []byte { return p.heap[offset : offset+size] }

func certsOf(t *testing.T, texts []string) []*x509.Certificate {
	t.Helper()
	var out []*x509.Certificate
	for _, text := range texts {
		der, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(text), ""))
		if err != nil {
			t.Fatal(err)
		}
		c, err := x509.ParseCertificate(der)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	return out
}

// signedPackage signs the package and code-signs its Mach-O files, with
// two leaves of one test PKI.
func signedPackage(t *testing.T) (Package, *signingtest.Leaf) {
	t.Helper()
	pki := signingtest.NewPKI(t)
	leaf := pki.Leaf(t, signingtest.Installer())
	p := testPackage(t)
	p.Signer = leaf.Identity()
	p.CodeSigner = codeSigningLeaf(t).Identity()
	return p, leaf
}

func TestSignedPackageVerifiesIndependently(t *testing.T) {
	t.Parallel()
	path, leaf := sharedSignedPkg(t)
	data := readBytes(t, path)
	raw := takeApart(t, data)
	toc := raw.toc

	// 1. The TOC digest: SHA-1 of the compressed TOC, at heap offset 0.
	digest := sha1.Sum(raw.ztoc)
	if toc.Checksum.Style != "sha1" || toc.Checksum.Offset != 0 || toc.Checksum.Size != 20 || !bytes.Equal(raw.slot(0, 20), digest[:]) {
		t.Fatalf("TOC checksum %+v does not match the compressed TOC", toc.Checksum)
	}
	// 2. The RSA slot: PKCS#1 v1.5, SHA-1 DigestInfo over that digest,
	// by the first certificate listed, which is the leaf.
	certs := certsOf(t, toc.RSA.Certs)
	if toc.RSA.Style != "RSA" || toc.RSA.Offset != 20 || toc.RSA.Size != 256 || !certs[0].Equal(leaf.Cert) {
		t.Fatalf("RSA element: %s at %d+%d, %d certificates", toc.RSA.Style, toc.RSA.Offset, toc.RSA.Size, len(certs))
	}
	rsaSig := raw.slot(toc.RSA.Offset, toc.RSA.Size)
	if err := rsa.VerifyPKCS1v15(certs[0].PublicKey.(*rsa.PublicKey), crypto.SHA1, digest[:], rsaSig); err != nil {
		t.Fatalf("RSA signature: %v", err)
	}
	// 3. Chain: leaf, intermediate, root, the same in both elements.
	if len(certs) != 3 || !certs[1].Equal(leaf.PKI.Intermediate) || !certs[2].Equal(leaf.PKI.Root) {
		t.Fatalf("chain of %d certificates not leaf, intermediate, root", len(certs))
	}
	if strings.Join(toc.RSA.Certs, "") != strings.Join(toc.CMS.Certs, "") {
		t.Fatal("the CMS element lists other certificates")
	}
	// 4. Slots contiguous, data after them, CMS slot zero-padded.
	if toc.CMS.Style != "CMS" || toc.CMS.Offset != 276 {
		t.Fatalf("CMS element %s at %d", toc.CMS.Style, toc.CMS.Offset)
	}
	end := toc.CMS.Offset + toc.CMS.Size
	if len(toc.Data) != 4 || len(toc.TopData) != 1 {
		t.Fatalf("%d component members and %d top members", len(toc.Data), len(toc.TopData))
	}
	for _, d := range append(toc.Data, toc.TopData...) {
		if d.Offset < end {
			t.Fatalf("member data at %d inside the signature slots (end %d)", d.Offset, end)
		}
	}
	cms := raw.slot(toc.CMS.Offset, toc.CMS.Size)
	if cms[0] != 0x30 || cms[len(cms)-1] != 0 {
		t.Fatalf("CMS slot starts %x, ends %x", cms[0], cms[len(cms)-1])
	}
	if leaf.Leaks(t, data) {
		t.Fatal("the package carries key material")
	}
}

// bsdtar (libarchive) still reads the signed package and checks every
// member's checksum, which the signed TOC carries.
func TestBsdtarExtractsTheSignedPackage(t *testing.T) {
	t.Parallel()
	bsdtar := testenv.RequireTool(t, "bsdtar")
	path, _ := sharedSignedPkg(t)
	dir := t.TempDir()
	if out, err := exec.Command(bsdtar, "-xf", path, "-C", dir).CombinedOutput(); err != nil {
		t.Fatalf("bsdtar -x: %v\n%s", err, out)
	}
	r := openPkg(t, path)
	for _, h := range r.Members() {
		if h.Type != "file" {
			continue
		}
		want, err := r.ReadFile(h.Name)
		if err != nil {
			t.Fatal(err)
		}
		if got := readBytes(t, filepath.Join(dir, h.Name)); !bytes.Equal(got, want) {
			t.Errorf("%s extracted differently", h.Name)
		}
	}
	raw := takeApart(t, readBytes(t, path))
	d := raw.toc.Data[0]
	bad := bytes.Clone(raw.file)
	bad[len(raw.file)-len(raw.heap)+int(d.Offset+d.Length/2)] ^= 1
	badPath := filepath.Join(t.TempDir(), "bad.pkg")
	os.WriteFile(badPath, bad, 0o644)
	if out, err := exec.Command(bsdtar, "-xf", badPath, "-C", t.TempDir()).CombinedOutput(); err == nil {
		t.Fatalf("bsdtar extracted a package with a changed member:\n%s", out)
	}
}

func TestSignedPackageIsReproducible(t *testing.T) {
	t.Parallel()
	path, leaf := sharedSignedPkg(t)
	p := testPackage(t)
	p.Signer = leaf.Identity()
	p.CodeSigner = codeSigningLeaf(t).Identity()
	a, b := readBytes(t, path), readBytes(t, buildPkg(t, p))
	if !bytes.Equal(a, b) {
		t.Fatal("two signed builds differ")
	}
	if bytes.Equal(a, readBytes(t, sharedUnsignedPkg(t))) {
		t.Fatal("the signed and the unsigned build are the same")
	}
}

func TestBadSigningIdentityWritesNothing(t *testing.T) {
	t.Parallel()
	pki := signingtest.NewPKI(t)
	expired := signingtest.Installer()
	expired.NotBefore, expired.NotAfter = time.Now().Add(-48*time.Hour), time.Now().Add(-time.Hour)
	win := pki.Leaf(t, signingtest.Windows())
	mac := pki.Leaf(t, signingtest.Installer())
	cases := map[string]struct {
		leaf *signingtest.Leaf
		key  *signingtest.Leaf
		want string
	}{
		"code-signing certificate": {win, win, "not a macOS installer signing certificate"},
		"expired":                  {pki.Leaf(t, expired), nil, "expired"},
		"key of another leaf":      {mac, win, "does not belong"},
	}
	p := testPackage(t)
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			id := c.leaf.Identity()
			if c.key != nil {
				id.Key = c.key.Key
			}
			p.Signer = id
			var out bytes.Buffer
			signed, err := p.Build(&out)
			if err == nil || signed || out.Len() != 0 || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Build = %v, %v with %d bytes written; want %q before writing", signed, err, out.Len(), c.want)
			}
			for _, l := range []*signingtest.Leaf{c.leaf, win, mac} {
				if l.Leaks(t, []byte(err.Error())) {
					t.Fatal("the error carries key material")
				}
			}
		})
	}
}

func readBytes(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
