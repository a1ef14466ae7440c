package codesign

import (
	"encoding/binary"
	"testing"
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
