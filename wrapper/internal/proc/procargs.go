package proc

import (
	"bytes"
	"errors"
)

var errNoExe = errors.New("no executable path")

// procArgsPath takes the executable's path from what macOS's
// kern.procargs2 returns: argc (four bytes), then that path,
// NUL-terminated, then the arguments.
func procArgsPath(buf []byte) (string, error) {
	if len(buf) < 4 {
		return "", errNoExe
	}
	path, _, found := bytes.Cut(buf[4:], []byte{0})
	if !found || len(path) == 0 {
		return "", errNoExe
	}
	return string(path), nil
}
