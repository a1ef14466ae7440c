package windows

import (
	"crypto/md5"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// payload describes the two files, in cabinet order, and returns a digest
// of their content for the package code.
func (p Package) payload(sources []string) ([]packageFile, []byte, error) {
	ctrldName := filepath.Base(p.Ctrld)
	if !isASCII(ctrldName) {
		return nil, nil, fmt.Errorf("msi: file name %q: keep it ASCII", ctrldName)
	}
	taken := map[string]bool{}
	files := []packageFile{
		{key: keyCtrld, component: componentCtrld, name: fileNameColumn(ctrldName, taken)},
		{key: keyWrapper, component: componentWrapper, name: fileNameColumn(wrapperName, taken)},
	}
	content := sha256.New()
	for i, src := range sources {
		sum, size, err := hashFile(src, content)
		if err != nil {
			return nil, nil, err
		}
		files[i].size = size
		for j := range files[i].md5 {
			files[i].md5[j] = int(int32(binary.LittleEndian.Uint32(sum[4*j:])))
		}
	}
	return files, content.Sum(nil), nil
}

// ctrldName is the ctrld line's binary name, without .exe: the files and
// the component that carry it are named after it.
func (p Package) ctrldName() string {
	return strings.TrimSuffix(filepath.Base(p.Ctrld), filepath.Ext(p.Ctrld))
}

// hashFile returns the file's MD5 and size, and feeds it to also.
func hashFile(path string, also io.Writer) ([]byte, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	h := md5.New()
	n, err := io.Copy(io.MultiWriter(h, also), f)
	if err != nil {
		return nil, 0, err
	}
	if n > maxFileSize {
		return nil, 0, fmt.Errorf("msi: %s: %d bytes, the cabinet holds at most %d", path, n, maxFileSize)
	}
	return h.Sum(nil), n, nil
}

// maxFileSize is what File.FileSize (an i4) can say.
const maxFileSize = 1<<31 - 1

// fileNameColumn is the File.FileName value: an 8.3 name alone, or a short
// name and the long name ("CTRLD-~1.EXE|ctrld-install.exe"), the short
// name unique in the folder. (wixl wrote long names alone, which Windows
// Installer's validation, ICE03, flags.)
func fileNameColumn(long string, taken map[string]bool) string {
	if isShortName(long) && !taken[strings.ToUpper(long)] {
		taken[strings.ToUpper(long)] = true
		return long
	}
	base, ext := long, ""
	if i := strings.LastIndexByte(long, '.'); i >= 0 {
		base, ext = long[:i], long[i+1:]
	}
	base, ext = shortChars(base, 8), shortChars(ext, 3)
	for n := 1; ; n++ {
		suffix := fmt.Sprintf("~%d", n)
		short := base[:min(len(base), 8-len(suffix))] + suffix
		if ext != "" {
			short += "." + ext
		}
		if !taken[short] {
			taken[short] = true
			return short + "|" + long
		}
	}
}

// isShortName: at most 8 characters and an optional extension of at most
// 3, all of them allowed in 8.3 names (case does not matter).
func isShortName(name string) bool {
	base, ext, hasExt := strings.Cut(name, ".")
	if base == "" || len(base) > 8 || len(ext) > 3 || hasExt && ext == "" || strings.Contains(ext, ".") {
		return false
	}
	return len(shortChars(base, 8)) == len(base) && len(shortChars(ext, 3)) == len(ext)
}

// shortChars keeps, upper-cased, up to max of the characters an 8.3 name
// may hold.
func shortChars(s string, max int) string {
	var b strings.Builder
	for _, r := range strings.ToUpper(s) {
		if b.Len() < max && (r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("!#$%&'()-@^_`{}~", r)) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}
