package codesign

import (
	"bytes"
	"crypto/sha256"
	"debug/macho"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/installers/signing/signingtest"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// Readers this package did not write check the signed files: LLVM's
// Mach-O tools for the load commands, OpenSSL for the CMS signature and
// its timestamp token. The SuperBlob and the page hashes are taken apart
// here by offset, apart from the Reader, as codesign -d would show them.

// llvmTool finds an LLVM tool by its plain name or a versioned one
// (Debian installs llvm-otool only as llvm-otool-NN).
func llvmTool(t *testing.T, name string) string {
	t.Helper()
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	versioned, _ := filepath.Glob("/usr/bin/" + name + "-[0-9]*")
	if len(versioned) > 0 {
		return versioned[len(versioned)-1]
	}
	return testenv.RequireTool(t, name)
}

// loadCommandFields reads a segment's or a command's numbers from otool or
// objdump -l style output: the block that names want.
func loadCommandFields(t *testing.T, listing, want string) map[string]uint64 {
	t.Helper()
	blocks := strings.Split(listing, "Load command ")
	for _, b := range blocks {
		if !strings.Contains(b, want) {
			continue
		}
		out := map[string]uint64{}
		for _, m := range regexp.MustCompile(`(?m)^\s*(\w+) (0x[0-9a-f]+|\d+)\s*$`).FindAllStringSubmatch(b, -1) {
			v, err := strconv.ParseUint(m[2], 0, 64)
			if err == nil {
				out[m[1]] = v
			}
		}
		return out
	}
	t.Fatalf("no load command %s in:\n%s", want, listing)
	return nil
}

func TestSignedSlicesAsLLVMSeesThem(t *testing.T) {
	signer, _ := testSigner(t, "")
	x86, arm := darwinSlices(t)
	for name, image := range map[string][]byte{"amd64": x86, "arm64": arm} {
		signed, err := signer.Sign(image)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), name)
		os.WriteFile(path, signed, 0o755)
		for _, tool := range []struct{ bin, args string }{
			{llvmTool(t, "llvm-otool"), "-l"},
			{llvmTool(t, "llvm-objdump"), "--macho --all-headers"},
		} {
			out, err := exec.Command(tool.bin, append(strings.Fields(tool.args), path)...).CombinedOutput()
			if err != nil || bytes.Contains(out, []byte("truncated or malformed")) {
				t.Fatalf("%s %s %s: %v\n%s", tool.bin, tool.args, name, err, out)
			}
			sig := loadCommandFields(t, string(out), "LC_CODE_SIGNATURE")
			le := loadCommandFields(t, string(out), "segname __LINKEDIT")
			size := uint64(len(signed))
			if sig["dataoff"]+sig["datasize"] != size || le["fileoff"]+le["filesize"] != size || le["vmsize"] < le["filesize"] {
				t.Errorf("%s %s: LC_CODE_SIGNATURE %v, __LINKEDIT %v, file %d bytes", filepath.Base(tool.bin), name, sig, le, size)
			}
			checkByOffsets(t, signed, sig["dataoff"])
		}
	}
}

// checkByOffsets takes the SuperBlob apart as the format says, without
// the Reader: the CodeDirectory's page hashes match the file's pages up
// to the signature, and its requirements slot matches the requirement
// set.
func checkByOffsets(t *testing.T, file []byte, dataoff uint64) (cd, cms []byte) {
	t.Helper()
	be := binary.BigEndian
	sb := file[dataoff:]
	if be.Uint32(sb) != 0xfade0cc0 {
		t.Fatalf("SuperBlob magic %#x", be.Uint32(sb))
	}
	blobs := map[uint32][]byte{}
	for i := uint32(0); i < be.Uint32(sb[8:]); i++ {
		slot, off := be.Uint32(sb[12+8*i:]), be.Uint32(sb[16+8*i:])
		blobs[slot] = sb[off : off+be.Uint32(sb[off+4:])]
	}
	cd, reqs, wrapper := blobs[0], blobs[2], blobs[0x10000]
	if be.Uint32(cd) != 0xfade0c02 || be.Uint32(reqs) != 0xfade0c01 || be.Uint32(wrapper) != 0xfade0b01 {
		t.Fatalf("blob magics %x %x %x", cd[:4], reqs[:4], wrapper[:4])
	}
	hashOff, nSpecial, nCode, limit := be.Uint32(cd[16:]), be.Uint32(cd[24:]), be.Uint32(cd[28:]), be.Uint32(cd[32:])
	if flags := be.Uint32(cd[12:]); flags != 0x10000 || cd[36] != 32 || cd[37] != 2 || cd[39] != 12 || uint64(limit) != dataoff || nSpecial != 2 {
		t.Fatalf("CodeDirectory flags %#x hash size %d type %d page 2^%d limit %d special %d", flags, cd[36], cd[37], cd[39], limit, nSpecial)
	}
	for i := uint32(0); i < nCode; i++ {
		page := file[i*4096 : min(uint32(i+1)*4096, limit)]
		sum := sha256.Sum256(page)
		if !bytes.Equal(cd[hashOff+32*i:hashOff+32*i+32], sum[:]) {
			t.Fatalf("page %d hash differs", i)
		}
	}
	reqSum := sha256.Sum256(reqs)
	if !bytes.Equal(cd[hashOff-64:hashOff-32], reqSum[:]) || !bytes.Equal(cd[hashOff-32:hashOff], make([]byte, 32)) {
		t.Fatal("special slots: requirements hash wrong or Info.plist slot not empty")
	}
	return cd, wrapper[8:]
}

var asn1Line = regexp.MustCompile(`^\s*(\d+):d=\s*(\d+)\s+hl=\s*(\d+)\s+l=\s*(\d+)\s+(prim|cons):\s*(.*)$`)

// tokenAndSignature finds, in openssl asn1parse's listing of a CMS
// blob, the RFC 3161 token in the unsigned attributes and the signature
// value it stamps (the OCTET STRING before them).
func tokenAndSignature(t *testing.T, openssl string, der []byte, path string) (token, signature []byte) {
	t.Helper()
	out, err := exec.Command(openssl, "asn1parse", "-inform", "DER", "-in", path).CombinedOutput()
	if err != nil {
		t.Fatalf("asn1parse: %v\n%s", err, out)
	}
	type item struct {
		off, hl, l int
		what       string
	}
	var items []item
	for _, line := range strings.Split(string(out), "\n") {
		m := asn1Line.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		off, _ := strconv.Atoi(m[1])
		hl, _ := strconv.Atoi(m[3])
		l, _ := strconv.Atoi(m[4])
		items = append(items, item{off, hl, l, m[6]})
	}
	for i, it := range items {
		if !strings.Contains(it.what, "id-smime-aa-timeStampToken") {
			continue
		}
		tok := items[i+2] // SET, then the token's SEQUENCE
		token = der[tok.off : tok.off+tok.hl+tok.l]
		for j := i; j >= 0; j-- {
			if strings.HasPrefix(items[j].what, "OCTET STRING") {
				s := items[j]
				return token, der[s.off+s.hl : s.off+s.hl+s.l]
			}
		}
	}
	t.Fatalf("no timestamp token in:\n%s", out)
	return nil, nil
}

func TestSignatureAsOpenSSLSeesIt(t *testing.T) {
	openssl := testenv.RequireTool(t, "openssl")
	tsa := signingtest.NewPKI(t).StartTSA(t, openssl)
	signer, leaf := testSigner(t, tsa)
	x86, _ := darwinSlices(t)
	signed, err := signer.Sign(x86)
	if err != nil {
		t.Fatal(err)
	}
	sig, err := Read(signed, roots(leaf))
	if err != nil || sig.Timestamp.IsZero() || time.Since(sig.Timestamp).Abs() > time.Hour {
		t.Fatalf("the Reader's view of the timestamp: %v, %v", sig, err)
	}
	dir := t.TempDir()
	files := leaf.Write(t, dir)
	intermediate := filepath.Join(dir, "intermediate.pem")
	os.WriteFile(intermediate, signingtest.PEM(leaf.PKI.Intermediate), 0o644)
	thinSig := loadSignatureOffset(t, signed)
	cd, cms := checkByOffsets(t, signed, thinSig)
	cdPath, cmsPath := filepath.Join(dir, "codedirectory"), filepath.Join(dir, "cms.der")
	os.WriteFile(cdPath, cd, 0o644)
	os.WriteFile(cmsPath, cms, 0o644)
	run := func(args ...string) string {
		t.Helper()
		out, err := exec.Command(openssl, args...).CombinedOutput()
		if err != nil {
			t.Fatalf("openssl %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	run("cms", "-verify", "-inform", "DER", "-in", cmsPath, "-binary", "-content", cdPath, "-noverify", "-out", os.DevNull)
	run("cms", "-verify", "-inform", "DER", "-in", cmsPath, "-binary", "-content", cdPath, "-CAfile", files.CA, "-purpose", "any", "-out", os.DevNull)
	other := filepath.Join(dir, "other")
	os.WriteFile(other, append(bytes.Clone(cd[:len(cd)-1]), cd[len(cd)-1]^1), 0o644)
	if out, err := exec.Command(openssl, "cms", "-verify", "-inform", "DER", "-in", cmsPath, "-binary", "-content", other, "-noverify", "-out", os.DevNull).CombinedOutput(); err == nil {
		t.Fatalf("openssl verified the CMS over a changed CodeDirectory:\n%s", out)
	}
	printed := run("cms", "-cmsout", "-print", "-inform", "DER", "-in", cmsPath)
	for _, want := range []string{"signingTime", "1.2.840.113635.100.9.1", "1.2.840.113635.100.9.2", "id-smime-aa-timeStampToken"} {
		if !strings.Contains(printed, want) {
			t.Errorf("openssl cms -print shows no %s", want)
		}
	}
	token, sigValue := tokenAndSignature(t, openssl, cms, cmsPath)
	tokenPath, dataPath := filepath.Join(dir, "token.der"), filepath.Join(dir, "signature.bin")
	os.WriteFile(tokenPath, token, 0o644)
	os.WriteFile(dataPath, sigValue, 0o644)
	text := run("ts", "-reply", "-in", tokenPath, "-token_in", "-text")
	if !strings.Contains(text, "Hash Algorithm: sha256") || !strings.Contains(text, "Time stamp:") {
		t.Errorf("openssl ts -reply -text:\n%s", text)
	}
	verified := run("ts", "-verify", "-in", tokenPath, "-token_in", "-data", dataPath, "-CAfile", files.CA, "-untrusted", intermediate)
	if !strings.Contains(verified, "Verification: OK") {
		t.Errorf("openssl ts -verify:\n%s", verified)
	}
	sigValue[0] ^= 1
	os.WriteFile(dataPath, sigValue, 0o644)
	if out, err := exec.Command(openssl, "ts", "-verify", "-in", tokenPath, "-token_in", "-data", dataPath, "-CAfile", files.CA, "-untrusted", intermediate).CombinedOutput(); err == nil {
		t.Fatalf("openssl ts verified the token over another signature:\n%s", out)
	}
	t.Logf("openssl ts -reply -text:\n%s\nopenssl ts -verify: %s", text, verified)
}

// loadSignatureOffset reads LC_CODE_SIGNATURE's dataoff with Go's
// debug/macho.
func loadSignatureOffset(t *testing.T, image []byte) uint64 {
	t.Helper()
	f, err := macho.NewFile(bytes.NewReader(image))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range f.Loads {
		if raw := l.Raw(); binary.LittleEndian.Uint32(raw) == 0x1d {
			return uint64(binary.LittleEndian.Uint32(raw[8:]))
		}
	}
	t.Fatal("debug/macho finds no LC_CODE_SIGNATURE")
	return 0
}
