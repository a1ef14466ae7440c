package windows

import (
	"fmt"
	"os"
	"os/exec"
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

// run runs a tool with SOURCE_DATE_EPOCH set and its output kept for the
// error message.
func (p Package) run(name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), "SOURCE_DATE_EPOCH="+strconv.FormatInt(p.MTime.Unix(), 10), "TZ=UTC")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s: %v\n%s", name, err, out)
	}
	return nil
}
