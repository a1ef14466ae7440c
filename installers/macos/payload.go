package macos

import (
	"compress/gzip"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/ctrld-install/ctrld-install/installers/macos/bom"
	"github.com/ctrld-install/ctrld-install/installers/macos/cpio"
	"github.com/ctrld-install/ctrld-install/internal/names"
)

// InstallDir is where both binaries land: a folder only root can write,
// all the way up (/ and /Library are root:wheel 0755 on every Mac), since
// launchd and the postinstall run them as root. /usr/local/bin is not one:
// Homebrew on Intel Macs gives it, and often /usr/local itself, to the
// user who installed Homebrew, so nothing under /usr/local is safe.
const InstallDir = names.MacBinDir

// LegacyInstallDir is where releases before InstallDir put the binaries;
// "ctrld-install start" moves an existing service off it.
const LegacyInstallDir = names.MacLegacyBinDir

// entry is one payload path. Payload, Bom, numberOfFiles and installKBytes
// all derive from one list of these, so they cannot disagree.
type entry struct {
	name   string // "." or "./Library/ControlD/ctrld"
	mode   int64  // st_mode with type bits
	size   int64
	source string // file to copy, for regular files
	mtime  int64
}

func (e entry) isDir() bool  { return e.mode&0o170000 == cpio.TypeDir }
func (e entry) isFile() bool { return e.mode&0o170000 == cpio.TypeRegular }

const (
	dirMode  = cpio.TypeDir | 0o755
	execMode = cpio.TypeRegular | 0o755
)

// payloadTree lists ".", every directory down to InstallDir, and the
// binaries, root:wheel, parents first, siblings in byte order.
func payloadTree(mtime time.Time, files map[string]string) ([]entry, error) {
	t := mtime.Unix()
	out := []entry{{name: ".", mode: dirMode, mtime: t}}
	dir := "."
	for _, part := range strings.Split(strings.TrimPrefix(InstallDir, "/"), "/") {
		dir += "/" + part
		out = append(out, entry{name: dir, mode: dirMode, mtime: t})
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		info, err := os.Stat(files[n])
		if err != nil {
			return nil, err
		}
		out = append(out, entry{name: dir + "/" + n, mode: execMode, size: info.Size(), source: files[n], mtime: t})
	}
	return out, nil
}

// numberOfFiles counts every entry, the root included.
func numberOfFiles(tree []entry) int { return len(tree) }

// installKBytes sums each path's size rounded up to 512 bytes, the root
// left out, in KiB rounded up.
func installKBytes(tree []entry) int64 {
	var total int64
	for _, e := range tree[1:] {
		total += (e.size + 511) / 512 * 512
	}
	return (total + 1023) / 1024
}

// writeCpioGz writes entries as gzip'd odc cpio, as Installer expects:
// gzip with no name, MTIME 0 and OS 3 (Unix), files streamed from disk.
func writeCpioGz(w io.Writer, tree []entry, content func(entry) (io.ReadCloser, error)) error {
	gz, _ := gzip.NewWriterLevel(w, gzip.BestCompression)
	gz.OS = 3
	cw := cpio.NewWriter(gz)
	for i, e := range tree {
		h := &cpio.Header{Name: e.name, Mode: e.mode, NLink: 1, Ino: int64(i + 1), ModTime: e.mtime, Size: e.size}
		if e.isDir() {
			h.NLink = 2
		}
		if err := cw.WriteHeader(h); err != nil {
			return err
		}
		if e.isFile() {
			if err := copyContent(cw, e, content); err != nil {
				return err
			}
		}
	}
	if err := cw.Close(); err != nil {
		return err
	}
	return gz.Close()
}

func copyContent(w io.Writer, e entry, content func(entry) (io.ReadCloser, error)) error {
	r, err := content(e)
	if err != nil {
		return err
	}
	defer r.Close()
	_, err = io.Copy(w, r)
	return err
}

func openSource(e entry) (io.ReadCloser, error) { return os.Open(e.source) }

// writeBom writes the BOM for the same entries, checksumming each file as
// it streams.
func writeBom(w io.Writer, tree []entry, content func(entry) (io.ReadCloser, error)) error {
	bw := bom.NewWriter(w)
	for _, e := range tree {
		if err := bw.WriteHeader(&bom.Header{Name: e.name, Mode: uint16(e.mode), ModTime: uint32(e.mtime)}); err != nil {
			return err
		}
		if e.isFile() {
			if err := copyContent(bw, e, content); err != nil {
				return err
			}
		}
	}
	return bw.Close()
}
