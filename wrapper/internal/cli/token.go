package cli

import (
	"strings"

	"github.com/ctrld-install/ctrld-install/wrapper/internal/safefile"
)

// maxTokenFile caps a token file; a larger one is not a token.
const maxTokenFile = 64 << 10

// readTokenFile reads the token, trimming one trailing LF or CRLF. Any
// other whitespace stays, so a malformed token is reported as one. The
// file must be a regular file (a link to one is fine: the caller chose
// it): a FIFO or a device is refused at once instead of waited on.
func readTokenFile(path string) (string, error) {
	data, err := safefile.Read(path, safefile.Options{MaxSize: maxTokenFile})
	if err != nil {
		return "", err
	}
	tok := string(data)
	if strings.HasSuffix(tok, "\r\n") {
		return tok[:len(tok)-2], nil
	}
	return strings.TrimSuffix(tok, "\n"), nil
}
