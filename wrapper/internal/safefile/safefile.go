// Package safefile reads files the wrapper does not trust: only regular
// files, only up to a size, opened without blocking, and judged by what was
// opened rather than by a name that may change in between.
package safefile

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
)

// ErrRefused means the file is not a regular file (a link when links are
// refused, a FIFO, a device, a directory), is too large, or fails the
// caller's check.
var ErrRefused = errors.New("file refused")

// The refusals safefile itself makes; each matches ErrRefused.
var (
	ErrNotRegular = refusal{errors.New("not a regular file (a link, FIFO, device or directory)")}
	ErrTooLarge   = refusal{errors.New("larger than the size cap")}
)

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
	size, err := judge(f, opt)
	if err != nil {
		return nil, err
	}
	// One buffer of the size the file had when opened, plus a byte to
	// notice growth: no doubling on the way up to the cap.
	var buf bytes.Buffer
	buf.Grow(int(size) + 1)
	if _, err := buf.ReadFrom(io.LimitReader(f, opt.MaxSize+1)); err != nil {
		return nil, err
	}
	if int64(buf.Len()) > opt.MaxSize {
		return nil, ErrTooLarge
	}
	return buf.Bytes(), nil
}

// judge looks at the opened file, never at the name, and returns its size.
func judge(f *os.File, opt Options) (int64, error) {
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() || !notLink(f, info, opt.NoLinks) {
		return 0, ErrNotRegular
	}
	if info.Size() > opt.MaxSize {
		return 0, ErrTooLarge
	}
	if opt.Check == nil {
		return info.Size(), nil
	}
	if err := opt.Check(info); err != nil {
		return 0, refusal{err}
	}
	return info.Size(), nil
}

// refusal is a reason, still matching ErrRefused.
type refusal struct{ reason error }

func (r refusal) Error() string   { return r.reason.Error() }
func (r refusal) Unwrap() []error { return []error{ErrRefused, r.reason} }

// OpenExisting opens a file for reading, never through a link and never
// waiting for a writer. A missing file returns an error that matches
// os.ErrNotExist.
func OpenExisting(path string) (*os.File, error) { return open(path, true) }

// OpenRegular is OpenExisting for a file that must be a regular one:
// anything else (a link, a FIFO, a device, a directory) is refused with
// an error matching ErrNotRegular, as OpenOrCreate refuses it.
func OpenRegular(path string) (*os.File, error) {
	f, err := OpenExisting(path)
	return regularOnly(path, f, err)
}

// regularOnly passes on an opened file only when it is a regular file
// and not a link; anything else is closed and refused with ErrNotRegular.
func regularOnly(path string, f *os.File, err error) (*os.File, error) {
	if errors.Is(err, ErrNotRegular) {
		return nil, &fs.PathError{Op: "open", Path: path, Err: ErrNotRegular}
	}
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() || !notLink(f, info, true) {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: path, Err: ErrNotRegular}
	}
	return f, nil
}
