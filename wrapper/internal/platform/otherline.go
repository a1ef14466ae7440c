package platform

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Other is the service of another ctrld line, found installed while
// start runs for svc's line: the two want the same port and home folder,
// so one of them goes.
type Other struct {
	// Service is the other line's service: its name, the binary its
	// definition runs, and the definition files found.
	Service
	// UID is the resolver uid its definition passes with --cd; empty
	// when it names none. It identifies the device: it is never printed.
	UID string
	// Binary is our binary of that line, beside svc's, when it is there:
	// it goes once this line runs.
	Binary string
	// saved holds what RemoveOther removed, for RestoreOther.
	saved []savedFile
	// scm is the SCM entry's configuration, saved by RemoveOther.
	scm SCMService
}

// savedFile is one removed definition file or link, kept in memory.
type savedFile struct {
	path string
	data []byte
	mode fs.FileMode
	link string // the target, when the file was a symbolic link
}

// ErrOtherLeft means the other line's service could not be removed
// entirely: this line is not started beside it.
var ErrOtherLeft = errors.New("the other ctrld line's service is still installed")

// cdFlag is how ctrld's daemon takes the resolver uid.
const cdFlag = "--cd="

// maxUID bounds a resolver uid read from a definition.
const maxUID = 64

// maxDefinition bounds what is read of a service definition.
const maxDefinition = 256 << 10

// uidIn finds the resolver uid in a service definition's text: the value
// of --cd=, whatever quoting the init system's file puts around it. Only
// the characters a uid holds count; anything else is no uid.
func uidIn(text string) string {
	for rest := text; ; {
		i := strings.Index(rest, cdFlag)
		if i < 0 {
			return ""
		}
		before := byte(' ')
		if i > 0 {
			before = rest[i-1]
		}
		rest = rest[i+len(cdFlag):]
		if !strings.ContainsRune(" \t\"'\\=", rune(before)) {
			continue
		}
		if uid := uidPrefix(rest); uid != "" {
			return uid
		}
	}
}

// uidPrefix is the uid at the start of s: letters, digits, - and _, up
// to maxUID of them, ended by a quote, a space or the end.
func uidPrefix(s string) string {
	n := 0
	for n < len(s) && isUIDChar(s[n]) {
		n++
	}
	if n == 0 || n > maxUID {
		return ""
	}
	if n < len(s) && !strings.ContainsRune(" \t\r\n\"'\\", rune(s[n])) {
		return ""
	}
	return s[:n]
}

func isUIDChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_'
}

// firstWord is the program a command line starts with: quoted, or up to
// the first space.
func firstWord(cmd string) string {
	cmd = strings.TrimSpace(cmd)
	if rest, ok := strings.CutPrefix(cmd, `"`); ok {
		word, _, _ := strings.Cut(rest, `"`)
		return word
	}
	word, _, _ := strings.Cut(cmd, " ")
	return strings.Trim(word, `"'`)
}

// besideOurs is our binary of another line, the program file named
// file beside svc's binary, when it is there as a regular file.
func besideOurs(svc Service, file string) string {
	if svc.Ctrld == "" {
		return ""
	}
	p := filepath.Join(filepath.Dir(svc.Ctrld), file)
	if info, err := os.Lstat(p); err != nil || !info.Mode().IsRegular() {
		return ""
	}
	return p
}

// RemoveOtherBinary removes our binary of the other line, once this line
// runs. A binary anywhere else is not ours, and stays.
func RemoveOtherBinary(o Other) error {
	if o.Binary == "" {
		return nil
	}
	if err := os.Remove(o.Binary); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// save keeps the regular files and links among paths for restore.
func save(paths []string) []savedFile {
	var out []savedFile
	for _, p := range paths {
		info, err := os.Lstat(p)
		switch {
		case err != nil:
			continue
		case info.Mode()&fs.ModeSymlink != 0:
			if target, err := os.Readlink(p); err == nil {
				out = append(out, savedFile{path: p, link: target})
			}
		case info.Mode().IsRegular():
			if data, err := os.ReadFile(p); err == nil && len(data) <= maxDefinition {
				out = append(out, savedFile{path: p, data: data, mode: info.Mode().Perm()})
			}
		}
	}
	return out
}

// putBack writes the saved files and links where they were.
func putBack(files []savedFile) error {
	var errs []error
	for _, f := range files {
		os.MkdirAll(filepath.Dir(f.path), 0o755)
		if f.link != "" {
			os.Remove(f.path)
			errs = append(errs, os.Symlink(f.link, f.path))
			continue
		}
		errs = append(errs, os.WriteFile(f.path, f.data, f.mode))
		errs = append(errs, os.Chmod(f.path, f.mode))
	}
	return errors.Join(errs...)
}

// anyLeft reports whether any of paths still exists.
func anyLeft(paths []string) bool {
	for _, p := range paths {
		if _, err := os.Lstat(p); err == nil {
			return true
		}
	}
	return false
}

// readDefinition reads a service definition file, bounded, never through
// a link.
func readDefinition(path string) (string, bool) {
	info, err := os.Lstat(path)
	if err != nil || !info.Mode().IsRegular() || info.Size() > maxDefinition {
		return "", false
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return "", false
	}
	return string(data), true
}
