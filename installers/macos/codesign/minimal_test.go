package codesign

import (
	"bytes"
	"crypto"
	"crypto/sha1"
	"encoding/binary"
	"testing"

	ourmacho "github.com/ctrld-install/ctrld-install/installers/macos/macho"
)

// minimalImage is the smallest executable image the Signer takes: a
// header, __TEXT (one page, no sections) and a few bytes of __LINKEDIT.
func minimalImage() []byte {
	const textSize, linkeditSize = 0x1000, 0x10
	le := binary.LittleEndian
	out := make([]byte, textSize+linkeditSize)
	for i, v := range []uint32{0xfeedfacf, 0x01000007, 3, 2, 2, 2 * 72, 0, 0} {
		le.PutUint32(out[4*i:], v)
	}
	segment := func(at int, name string, vmaddr, fileoff, filesize uint64) {
		le.PutUint32(out[at:], 0x19)
		le.PutUint32(out[at+4:], 72)
		copy(out[at+8:at+24], name)
		le.PutUint64(out[at+24:], vmaddr)
		le.PutUint64(out[at+32:], 0x1000)
		le.PutUint64(out[at+40:], fileoff)
		le.PutUint64(out[at+48:], filesize)
	}
	segment(32, "__TEXT", 0x100000000, 0, textSize)
	segment(32+72, "__LINKEDIT", 0x100000000+textSize, textSize, linkeditSize)
	return out
}

func TestMinimalImageRoundTrip(t *testing.T) {
	signer, _ := testSigner(t, "")
	signed, err := signer.Sign(minimalImage())
	if err != nil {
		t.Fatal(err)
	}
	sig, err := Read(signed, nil)
	if err != nil || sig.Pages != 2 || sig.CodeLimit != 0x1010 {
		t.Fatalf("%+v, %v", sig, err)
	}
	again, err := signer.Sign(signed)
	if err != nil || len(again) != len(signed) {
		t.Fatalf("re-signing: %d bytes, %v", len(again), err)
	}
}

// The Reader takes any bytes without panicking, and what it accepts is
// consistent with itself.
func FuzzRead(f *testing.F) {
	f.Add(minimalImage())
	signer, _ := testSigner(f, "")
	if signed, err := signer.Sign(minimalImage()); err == nil {
		f.Add(signed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sig, err := Read(data, nil)
		if err != nil {
			return
		}
		if uint64(sig.Pages) != (sig.CodeLimit+PageSize-1)/PageSize || sig.CodeLimit > uint64(len(data)) {
			t.Fatalf("accepted %d pages over %d bytes of a %d-byte image", sig.Pages, sig.CodeLimit, len(data))
		}
	})
}

// A publisher's signature may carry a SHA-1 CodeDirectory first and a
// SHA-256 one in the alternate slot, both named by the CMS signature:
// the Reader checks both, and the KeepSigned signer keeps such a slice.
func TestReadsASHA1PrimaryWithASHA256Alternate(t *testing.T) {
	signer, leaf := testSigner(t, "")
	signed, err := signer.Sign(minimalImage())
	if err != nil {
		t.Fatal(err)
	}
	th, _ := ourmacho.ParseThin(signed)
	area := signed[th.Signature.DataOff : th.Signature.DataOff+th.Signature.DataLen]
	blobs, err := readSuperBlob(area, magicEmbeddedSignature)
	if err != nil {
		t.Fatal(err)
	}
	sha256CD, _ := parseCodeDirectory(blobs[slotCodeDirectory])
	sha1CD := sha256CD
	sha1CD.HashType = 1
	sha1CD.Code = hashPagesWith(signed[:sha256CD.CodeLimit], PageSize, crypto.SHA1, sha1.Size)
	reqSum := sha1.Sum(blobs[slotRequirements])
	sha1CD.Special = [][]byte{make([]byte, sha1.Size), reqSum[:]}
	primary, alternate := sha1CD.marshal(), bytes.Clone(blobs[slotCodeDirectory])
	cms, err := signer.signCMS([][]byte{primary, alternate}, signer.SigningTime)
	if err != nil {
		t.Fatal(err)
	}
	rebuild := func(alt []byte) []byte {
		out := bytes.Clone(signed)
		sb := superBlob(magicEmbeddedSignature, map[uint32][]byte{slotCodeDirectory: primary, slotRequirements: blobs[slotRequirements],
			slotAlternateCodeDirectories: alt, slotSignature: blob(magicBlobWrapper, cms)})
		clear(out[th.Signature.DataOff:])
		copy(out[th.Signature.DataOff:], sb)
		return out
	}
	image := rebuild(alternate)
	sig, err := Read(image, roots(leaf))
	if err != nil {
		t.Fatal(err)
	}
	want := sha1.Sum(primary)
	if !bytes.Equal(sig.CDHash, want[:]) || sig.Identifier != testIdentifier {
		t.Fatalf("cdhash %x, want the SHA-1 primary's %x", sig.CDHash, want)
	}
	keeper := *signer
	keeper.KeepSigned = true
	if kept, err := keeper.SignFile(image); err != nil || !bytes.Equal(kept, image) {
		t.Fatalf("a SHA-1 + SHA-256 publisher signature was not kept: %v", err)
	}
	bad := bytes.Clone(alternate)
	bad[len(bad)-1] ^= 1
	if _, err := Read(rebuild(bad), nil); err == nil {
		t.Fatal("a changed alternate CodeDirectory still verifies")
	}
}
