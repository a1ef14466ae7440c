// Package safefile reads files the wrapper does not trust: only regular
// files, only up to a size, and checked to be the file that was inspected.
package safefile

import (
	"errors"
	"io"
	"os"
)

// ErrRefused means the file is not a regular file, is too large, or changed
// between inspection and opening.
var ErrRefused = errors.New("file refused")

// Options say what is acceptable.
type Options struct {
	MaxSize int64
	// NoLinks refuses a symbolic link even when it points at a regular file.
	NoLinks bool
}

// Read returns the file's contents. A missing file returns an error that
// matches os.ErrNotExist.
func Read(path string, opt Options) ([]byte, error) {
	stat := os.Stat
	if opt.NoLinks {
		stat = os.Lstat
	}
	before, err := stat(path)
	if err != nil {
		return nil, err
	}
	if !before.Mode().IsRegular() || before.Size() > opt.MaxSize {
		return nil, ErrRefused
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	opened, err := f.Stat()
	if err != nil || !os.SameFile(before, opened) {
		return nil, ErrRefused
	}
	data, err := io.ReadAll(io.LimitReader(f, opt.MaxSize+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > opt.MaxSize {
		return nil, ErrRefused
	}
	return data, nil
}
