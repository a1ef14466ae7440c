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
)

// cdHashAttribute is one value of the cdhashes2 attribute.
type cdHashAttribute struct {
	Algorithm asn1.ObjectIdentifier
	Digest    []byte
}

const cdHashesPlistFormat = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>cdhashes</key>
	<array>
		<data>
		%s
		</data>
	</array>
</dict>
</plist>
`

func cdHashesPlist(digest []byte) []byte {
	return []byte(fmt.Sprintf(cdHashesPlistFormat, base64.StdEncoding.EncodeToString(digest[:cdHashLen])))
}

// signCMS is a detached SignedData over the CodeDirectory blob (content
// type id-data), SHA-256, with contentType, messageDigest, signingTime
// and Apple's two cdhash attributes, timestamped when a time-stamping
// authority is set.
func (s *Signer) signCMS(cd []byte, when time.Time) ([]byte, error) {
	digest := cdHash(cd)
	b := pkcs7.NewBuilder(s.Key, s.Chain, crypto.SHA256)
	if err := b.SetContentData(cd); err != nil {
		return nil, err
	}
	for _, a := range []struct {
		oid   asn1.ObjectIdentifier
		value any
	}{
		{pkcs7.OidAttributeSigningTime, when.UTC()},
		{oidCDHashesPlist, cdHashesPlist(digest)},
		{oidCDHashes2, cdHashAttribute{Algorithm: oidSHA256, Digest: digest}},
	} {
		if err := b.AddAuthenticatedAttribute(a.oid, a.value); err != nil {
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

// verifyCMS checks a CMS blob signs the CodeDirectory and names it in
// both cdhash attributes, and checks its timestamp token if it has one.
func verifyCMS(der, cd []byte) (pkcs9.TimestampedSignature, error) {
	psd, err := pkcs7.Unmarshal(der)
	if err != nil {
		return pkcs9.TimestampedSignature{}, invalid("CMS: %v", err)
	}
	sig, err := psd.Content.Verify(cd, false)
	if err != nil {
		return pkcs9.TimestampedSignature{}, invalid("CMS does not sign the CodeDirectory: %v", err)
	}
	if err := checkCDHashes(sig.SignerInfo, cdHash(cd)); err != nil {
		return pkcs9.TimestampedSignature{}, err
	}
	ts, err := pkcs9.VerifyOptionalTimestamp(sig)
	if err != nil {
		return pkcs9.TimestampedSignature{}, invalid("timestamp: %v", err)
	}
	return ts, nil
}

func checkCDHashes(si *pkcs7.SignerInfo, digest []byte) error {
	var pair cdHashAttribute
	if err := si.AuthenticatedAttributes.GetOne(oidCDHashes2, &pair); err != nil {
		return invalid("cdhashes2 attribute: %v", err)
	}
	if !pair.Algorithm.Equal(oidSHA256) || !bytes.Equal(pair.Digest, digest) {
		return invalid("the cdhashes2 attribute names another CodeDirectory")
	}
	var plist []byte
	if err := si.AuthenticatedAttributes.GetOne(oidCDHashesPlist, &plist); err != nil {
		return invalid("cdhashes attribute: %v", err)
	}
	if !bytes.Contains(plist, []byte(base64.StdEncoding.EncodeToString(digest[:cdHashLen]))) {
		return invalid("the cdhashes attribute names another CodeDirectory")
	}
	return nil
}
