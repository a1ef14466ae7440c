package signing

import (
	"bytes"
	"cmp"
	"context"
	"crypto"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/sassoftware/relic/v8/lib/authenticode"
	"github.com/sassoftware/relic/v8/lib/binpatch"
	"github.com/sassoftware/relic/v8/lib/certloader"
	"github.com/sassoftware/relic/v8/lib/comdoc"
)

// authenticodeHash is the digest of every Authenticode signature made
// here (SHA-1 signatures are refused by current Windows).
const authenticodeHash = crypto.SHA256

// maxPE bounds the executable SignPE reads into memory.
const maxPE = 512 << 20

// peChecksumOffset is where the optional header's CheckSum sits, counted
// from the PE signature.
const peChecksumOffset = 88

func (id *Identity) relic() *certloader.Certificate {
	return &certloader.Certificate{Leaf: id.Leaf(), Certificates: id.Chain, PrivateKey: id.Key, Timestamper: id.Timestamper()}
}

func opus() *authenticode.OpusParams { return &authenticode.OpusParams{Description: Description} }

// SignPE writes an Authenticode-signed copy of a Windows executable
// (PE32 or PE32+, any architecture) to out. An existing signature is
// replaced. The PE checksum is recomputed, as signtool does.
func SignPE(id *Identity, in io.Reader, out io.Writer) error {
	if err := id.Check(WindowsCode, time.Now()); err != nil {
		return err
	}
	image, err := io.ReadAll(io.LimitReader(in, maxPE+1))
	if err != nil {
		return err
	}
	if len(image) > maxPE {
		return fmt.Errorf("authenticode: executable larger than %d MiB", maxPE>>20)
	}
	digest, err := authenticode.DigestPE(bytes.NewReader(image), authenticodeHash, false)
	if err != nil {
		return fmt.Errorf("authenticode: not a PE executable: %w", err)
	}
	patch, _, err := digest.Sign(context.Background(), id.relic(), opus())
	if err != nil {
		return fmt.Errorf("authenticode: %w", err)
	}
	signed := applyPatch(image, patch)
	fixPEChecksum(signed)
	_, err = out.Write(signed)
	return err
}

// applyPatch returns image with the patch's regions replaced; regions do
// not overlap.
func applyPatch(image []byte, p *binpatch.PatchSet) []byte {
	order := make([]int, len(p.Patches))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(p.Patches[a].Offset, p.Patches[b].Offset) })
	var b bytes.Buffer
	pos := int64(0)
	for _, i := range order {
		h := p.Patches[i]
		b.Write(image[pos:h.Offset])
		b.Write(p.Blobs[i])
		pos = h.Offset + int64(h.OldSize)
	}
	if pos < int64(len(image)) {
		b.Write(image[pos:])
	}
	return b.Bytes()
}

func fixPEChecksum(image []byte) {
	peStart := int(binary.LittleEndian.Uint32(image[0x3c:]))
	ck := authenticode.NewPEChecksum(peStart)
	ck.Write(image)
	copy(image[peStart+peChecksumOffset:], ck.Sum(nil))
}

// SignPEFile signs the executable at in into out (which may be in).
func SignPEFile(id *Identity, in, out string) error {
	data, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := SignPE(id, bytes.NewReader(data), &b); err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	return os.WriteFile(out, b.Bytes(), 0o644)
}

// SignMSI Authenticode-signs the Windows Installer package at path in
// place: the \x05DigitalSignature stream (SHA-256) and the
// \x05MsiDigitalSignatureEx stream, which also covers the streams'
// metadata. Whatever wrote the MSI, signing is its last step: changing
// any stream afterwards breaks the signature.
func SignMSI(id *Identity, path string) error {
	if err := id.Check(WindowsCode, time.Now()); err != nil {
		return err
	}
	imprint, prehash, err := digestMSI(path)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	sig, err := authenticode.SignMSIImprint(context.Background(), imprint, authenticodeHash, id.relic(), opus())
	if err != nil {
		return fmt.Errorf("authenticode: %w", err)
	}
	return insertMSISignature(path, sig.Raw, prehash)
}

func digestMSI(path string) (imprint, prehash []byte, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	doc, err := comdoc.ReadFile(f)
	if err != nil {
		return nil, nil, fmt.Errorf("not an MSI (compound file): %w", err)
	}
	defer doc.Close()
	return authenticode.DigestMSI(doc, authenticodeHash, true)
}

func insertMSISignature(path string, sig, prehash []byte) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	doc, err := comdoc.WriteFile(f)
	if err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := authenticode.InsertMSISignature(doc, sig, prehash); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := doc.Close(); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Close()
}
