// Package safefile reads files the wrapper does not trust: only regular
// files, only up to a size, opened without blocking, and judged by what was
// opened rather than by a name that may change in between.
package safefile

import (
	"errors"
	"io"
	"io/fs"
	"os"
)

// ErrRefused means the file is not a regular file (a link when links are
// refused, a FIFO, a device, a directory), is too large, or fails the
// caller's check.
var ErrRefused = errors.New("file refused")

// Options say what is acceptable.
type Options struct {
	MaxSize int64
	// NoLinks refuses a symbolic link (a reparse point on Windows) even
	// when it points at a regular file.
	NoLinks bool
	// Check, when set, judges the opened file; an error refuses it and is
	// returned wrapped in ErrRefused.
	Check func(fs.FileInfo) error
}

// Read returns the file's contents. A missing file returns an error that
// matches os.ErrNotExist. The open never waits for a writer, so a FIFO or
// a device at path cannot stall the caller.
func Read(path string, opt Options) ([]byte, error) {
	f, err := open(path, opt.NoLinks)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if err := judge(f, opt); err != nil {
		return nil, err
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

// judge looks at the opened file, never at the name.
func judge(f *os.File, opt Options) error {
	info, err := f.Stat()
	if err != nil {
		return ErrRefused
	}
	if !info.Mode().IsRegular() || info.Size() > opt.MaxSize || !notLink(f, info, opt.NoLinks) {
		return ErrRefused
	}
	if opt.Check == nil {
		return nil
	}
	if err := opt.Check(info); err != nil {
		return refusal{err}
	}
	return nil
}

// refusal is the caller's reason, still matching ErrRefused.
type refusal struct{ reason error }

func (r refusal) Error() string   { return r.reason.Error() }
func (r refusal) Unwrap() []error { return []error{ErrRefused, r.reason} }
