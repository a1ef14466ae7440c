package cli

import (
	"errors"
	"io"
	"os"
	"strings"
)

// maxTokenFile caps a token file; a larger one is not a token.
const maxTokenFile = 64 << 10

var errTokenFileTooBig = errors.New("token file too large")

// readTokenFile reads the token, trimming one trailing LF or CRLF. Any
// other whitespace stays, so a malformed token is reported as one.
func readTokenFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxTokenFile+1))
	if err != nil {
		return "", err
	}
	if len(data) > maxTokenFile {
		return "", errTokenFileTooBig
	}
	tok := string(data)
	if strings.HasSuffix(tok, "\r\n") {
		return tok[:len(tok)-2], nil
	}
	return strings.TrimSuffix(tok, "\n"), nil
}
