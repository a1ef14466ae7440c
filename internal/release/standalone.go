package release

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/ctrld-install/ctrld-install/installers/macos"
	"github.com/ctrld-install/ctrld-install/installers/macos/macho"
	"github.com/ctrld-install/ctrld-install/installers/signing"
	"github.com/ctrld-install/ctrld-install/internal/names"
)

// The admin's ctrld-install: the wrapper alone, in an archive of one
// file, for the admin's own machine (report) and to package
// beside the MSI (install-msi, the Intune detection script). One kind per
// OS, as each kind has one OS and one signing input.
const (
	standaloneWindows = "ctrld-install-windows"
	standaloneDarwin  = "ctrld-install-darwin"
	standaloneLinux   = "ctrld-install-linux"
)

// executableMode is the archived file's mode, so it runs once unpacked.
const executableMode = 0o755

// archiveFormat is how a standalone archive is written.
type archiveFormat struct {
	ext   string
	write func(w io.Writer, member, source string, mtime time.Time) error
}

var (
	zipFormat   = archiveFormat{ext: "zip", write: writeOneFileZip}
	tarGzFormat = archiveFormat{ext: "tar.gz", write: writeOneFileTarGz}
)

// standalone is one archive holding ctrld-install for one OS and arch.
type standalone struct {
	version, os, arch string
	format            archiveFormat
	mtime             time.Time
	// binary makes the file to archive in work, and says whether it is
	// signed.
	binary func(work string) (path string, signed bool, err error)
}

// FileName follows ctrld's own archives: ctrld-install_<version>_<os>_<arch>.
func (s standalone) FileName() string {
	return fmt.Sprintf("%s_%s_%s_%s.%s", names.Wrapper, s.version, s.os, s.arch, s.format.ext)
}

func (s standalone) Build(w io.Writer) (bool, error) {
	work, err := os.MkdirTemp("", "ctrld-install-standalone")
	if err != nil {
		return false, err
	}
	defer os.RemoveAll(work)
	path, signed, err := s.binary(work)
	if err != nil {
		return false, err
	}
	return signed, s.format.write(w, exeName(names.Wrapper, s.os), path, s.mtime)
}

// newStandaloneWindows is the zip of one architecture's ctrld-install.exe,
// Authenticode-signed when it was staged.
func newStandaloneWindows(in Input) Installer {
	b := in.Binaries[0]
	return standalone{
		version: in.Version, os: b.OS, arch: b.Arch, format: zipFormat, mtime: in.MTime,
		binary: func(string) (string, bool, error) { return b.Wrapper, in.Signing.Windows != nil, nil },
	}
}

// newStandaloneLinux is the tar.gz of one architecture's ctrld-install.
func newStandaloneLinux(in Input) Installer {
	b := in.Binaries[0]
	return standalone{
		version: in.Version, os: b.OS, arch: b.Arch, format: tarGzFormat, mtime: in.MTime,
		binary: func(string) (string, bool, error) { return b.Wrapper, false, nil },
	}
}

// newStandaloneDarwin is the zip of the universal ctrld-install, merged
// from the Mac slices as the pkg merges them.
func newStandaloneDarwin(in Input) Installer {
	var slices []string
	for _, b := range in.Binaries {
		slices = append(slices, b.Wrapper)
	}
	return standalone{
		version: in.Version, os: "darwin", arch: "universal", format: zipFormat, mtime: in.MTime,
		binary: func(work string) (string, bool, error) {
			merged := filepath.Join(work, names.Wrapper+".universal")
			if err := mergeUniversal(merged, slices); err != nil {
				return "", false, err
			}
			return codeSignMac(in.Signing.MachO, merged, filepath.Join(work, names.Wrapper), in.MTime)
		},
	}
}

// codeSignMac code-signs the universal ctrld-install as the pkg signs its
// copy; without a Mach-O identity the archive holds it as built and says
// it is unsigned.
func codeSignMac(id *signing.Identity, path, out string, when time.Time) (string, bool, error) {
	if id == nil {
		return path, false, nil
	}
	if err := macos.SignCode(id, path, out, macos.WrapperCodeIdentifier, when, false); err != nil {
		return "", false, fmt.Errorf("ctrld-install for macOS: code-sign: %w", err)
	}
	return out, true, nil
}

func mergeUniversal(out string, slices []string) error {
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := macho.Merge(f, slices...); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// writeOneFileZip writes a zip of one executable file, stamped mtime.
func writeOneFileZip(w io.Writer, member, source string, mtime time.Time) error {
	in, err := os.Open(source)
	if err != nil {
		return err
	}
	defer in.Close()
	zw := zip.NewWriter(w)
	h := &zip.FileHeader{Name: member, Method: zip.Deflate, Modified: mtime.UTC()}
	h.SetMode(executableMode)
	fw, err := zw.CreateHeader(h)
	if err != nil {
		return err
	}
	if _, err := io.Copy(fw, in); err != nil {
		return err
	}
	return zw.Close()
}

// writeOneFileTarGz writes a tar.gz of one executable file owned by
// root, stamped mtime; the gzip header holds no name and no time.
func writeOneFileTarGz(w io.Writer, member, source string, mtime time.Time) error {
	in, err := os.Open(source)
	if err != nil {
		return err
	}
	defer in.Close()
	info, err := in.Stat()
	if err != nil {
		return err
	}
	gz, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	tw := tar.NewWriter(gz)
	h := &tar.Header{
		Typeflag: tar.TypeReg, Name: member, Size: info.Size(), Mode: executableMode,
		ModTime: mtime.UTC(), Uname: "root", Gname: "root", Format: tar.FormatUSTAR,
	}
	if err := tw.WriteHeader(h); err != nil {
		return err
	}
	if _, err := io.Copy(tw, in); err != nil {
		return err
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}
