package safefile

import "errors"

// ErrUntrustedDir means a directory is not one only root (and the
// account this process runs as) controls: it is a link, not a directory,
// owned by another user, or writable by group or others.
var ErrUntrustedDir = errors.New("not a directory only root controls")
