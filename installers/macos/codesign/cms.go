package codesign

import (
	"bytes"
	"context"
	"crypto"
	"encoding/asn1"
	"encoding/base64"
	"fmt"
	"time"

	"github.com/sassoftware/relic/v8/lib/pkcs7"
	"github.com/sassoftware/relic/v8/lib/pkcs9"
)

// Apple's signed attributes that name the CodeDirectories a CMS
// signature covers: a property list of truncated cdhashes, and one
// (digest algorithm, full digest) pair per CodeDirectory.
var (
	oidCDHashesPlist = asn1.ObjectIdentifier{1, 2, 840, 113635, 100, 9, 1}
	oidCDHashes2     = asn1.ObjectIdentifier{1, 2, 840, 113635, 100, 9, 2}
	oidSHA256        = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 1}
	hashOIDs         = map[crypto.Hash]asn1.ObjectIdentifier{
		crypto.SHA1:   {1, 3, 14, 3, 2, 26},
		crypto.SHA256: oidSHA256,
		crypto.SHA384: {2, 16, 840, 1, 101, 3, 4, 2, 2},
	}
)

// cdHashAttribute is one value of the cdhashes2 attribute.
type cdHashAttribute struct {
	Algorithm asn1.ObjectIdentifier
	Digest    []byte
}

const cdHashesPlistHead = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>cdhashes</key>
	<array>
`

const cdHashesPlistTail = `	</array>
</dict>
</plist>
`

// cdHashesPlist lists the truncated digest of every CodeDirectory.
func cdHashesPlist(digests [][]byte) []byte {
	var b bytes.Buffer
	b.WriteString(cdHashesPlistHead)
	for _, d := range digests {
		fmt.Fprintf(&b, "\t\t<data>\n\t\t%s\n\t\t</data>\n", base64.StdEncoding.EncodeToString(d[:cdHashLen]))
	}
	b.WriteString(cdHashesPlistTail)
	return b.Bytes()
}

// signCMS is a detached SignedData over the primary CodeDirectory (the
// first of cds; content type id-data), SHA-256, with contentType,
// messageDigest, signingTime and Apple's two attributes naming every
// CodeDirectory, timestamped when a time-stamping authority is set.
func (s *Signer) signCMS(cds [][]byte, when time.Time) ([]byte, error) {
	b := pkcs7.NewBuilder(s.Key, s.Chain, crypto.SHA256)
	if err := b.SetContentData(cds[0]); err != nil {
		return nil, err
	}
	if err := b.AddAuthenticatedAttribute(pkcs7.OidAttributeSigningTime, when.UTC()); err != nil {
		return nil, err
	}
	var digests [][]byte
	var pairs []cdHashAttribute
	for _, blob := range cds {
		cd, err := parseCodeDirectory(blob)
		if err != nil {
			return nil, err
		}
		h := cdHashes[cd.HashType].hash
		full := h.New()
		full.Write(blob)
		digests = append(digests, cd.digest(blob))
		pairs = append(pairs, cdHashAttribute{Algorithm: hashOIDs[h], Digest: full.Sum(nil)})
	}
	if err := b.AddAuthenticatedAttribute(oidCDHashesPlist, cdHashesPlist(digests)); err != nil {
		return nil, err
	}
	for _, p := range pairs {
		if err := b.AddAuthenticatedAttribute(oidCDHashes2, p); err != nil {
			return nil, err
		}
	}
	sd, err := b.Sign()
	if err != nil {
		return nil, err
	}
	if _, err := pkcs9.TimestampAndMarshal(context.Background(), sd, s.Timestamper, false); err != nil {
		return nil, err
	}
	if _, err := sd.Detach(); err != nil {
		return nil, err
	}
	return sd.Marshal()
}

// verifyCMS checks a CMS blob signs the primary CodeDirectory (the
// first of cds) and, where it carries Apple's cdhash attributes, that
// they name every CodeDirectory; it checks its timestamp token if it has
// one.
func verifyCMS(der []byte, cds [][]byte) (pkcs9.TimestampedSignature, error) {
	psd, err := pkcs7.Unmarshal(der)
	if err != nil {
		return pkcs9.TimestampedSignature{}, invalid("CMS: %v", err)
	}
	sig, err := psd.Content.Verify(cds[0], false)
	if err != nil {
		return pkcs9.TimestampedSignature{}, invalid("CMS does not sign the CodeDirectory: %v", err)
	}
	if err := checkCDHashes(sig.SignerInfo, cds); err != nil {
		return pkcs9.TimestampedSignature{}, err
	}
	ts, err := pkcs9.VerifyOptionalTimestamp(sig)
	if err != nil {
		return pkcs9.TimestampedSignature{}, invalid("timestamp: %v", err)
	}
	return ts, nil
}

// checkCDHashes: every CodeDirectory is in the cdhashes2 attribute, and every CodeDirectory's truncated hash in the cdhashes
// list, when the signature has them (older signatures do not).
func checkCDHashes(si *pkcs7.SignerInfo, cds [][]byte) error {
	var pairs []cdHashAttribute
	hasPairs := si.AuthenticatedAttributes.GetAll(oidCDHashes2, &pairs) == nil
	var plist []byte
	hasPlist := si.AuthenticatedAttributes.GetOne(oidCDHashesPlist, &plist) == nil
	for _, blob := range cds {
		cd, err := parseCodeDirectory(blob)
		if err != nil {
			return err
		}
		digest := cd.digest(blob)
		if hasPlist && !bytes.Contains(plist, []byte(base64.StdEncoding.EncodeToString(digest[:cdHashLen]))) {
			return invalid("the cdhashes attribute does not name CodeDirectory %x", digest[:cdHashLen])
		}
		h := cdHashes[cd.HashType].hash
		full := h.New()
		full.Write(blob)
		if hasPairs && !listsDigest(pairs, hashOIDs[h], full.Sum(nil)) {
			return invalid("the cdhashes2 attribute does not name CodeDirectory %x", digest[:cdHashLen])
		}
	}
	return nil
}

func listsDigest(pairs []cdHashAttribute, alg asn1.ObjectIdentifier, digest []byte) bool {
	for _, p := range pairs {
		if p.Algorithm.Equal(alg) && bytes.Equal(p.Digest, digest) {
			return true
		}
	}
	return false
}
