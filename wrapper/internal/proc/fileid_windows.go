package proc

import "errors"

// FileOf: the wrapper needs no file identities on Windows.
func FileOf(string) (FileID, error) { return FileID{}, errors.ErrUnsupported }
