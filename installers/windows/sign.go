package windows

import (
	"strconv"
)

func (p Package) signing() bool { return p.Cert != "" && p.Key != "" }

// sign Authenticode-signs in into out with osslsigncode, stamping the
// signing time with MTime so the signature is reproducible too.
func (p Package) sign(in, out string) (string, error) {
	if err := requireTools("osslsigncode"); err != nil {
		return "", err
	}
	err := p.run("osslsigncode", "sign", "-certs", p.Cert, "-key", p.Key,
		"-n", "Control D (ctrld)", "-h", "sha256", "-time", strconv.FormatInt(p.MTime.Unix(), 10),
		"-in", in, "-out", out)
	return out, err
}
