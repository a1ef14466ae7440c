package linux

import (
	"archive/tar"
	"compress/gzip"
	"io"
	"os"

	"github.com/ctrld-install/ctrld-install/internal/names"
)

// tarballName is the archive's file name.
func (p Package) tarballName() string {
	return p.Name + "_" + p.Version + "_linux_" + p.Arch + ".tar.gz"
}

const tarballReadme = `ctrld for Linux machines without a package manager.

  sudo ./install.sh --token-file /root/ctrld-token

(the token alone in a root-only file), or put ProvisionToken=<token> in
` + SettingsFile + ` (mode 0600) first. Never pass the token on a command
line: every local user can read it there.
install.sh copies ctrld and ctrld-install to $PREFIX/bin (default
/usr/local/bin), runs "ctrld-install start", prints one result line and
exits with its code. "ctrld-install last" prints it again later.
It refuses (exit 62) a $PREFIX/bin that a user other than root could
replace: on older Debian, /usr/local is group-writable (staff), so use
PREFIX=/opt/ctrld there.
`

// buildTarball writes a tar.gz holding both binaries, install.sh and a
// README, in one folder, with fixed owners and times.
func (p Package) buildTarball(w io.Writer) error {
	if err := p.check(); err != nil {
		return err
	}
	install, err := renderScript("install.sh", p.vars("$prefix/bin"))
	if err != nil {
		return err
	}
	gz := gzip.NewWriter(w)
	tw := tar.NewWriter(gz)
	dir := p.Name + "_" + p.Version + "_linux_" + p.Arch + "/"
	entries := []struct {
		name string
		mode int64
		data func() ([]byte, error)
	}{
		{p.CtrldName(), 0o755, func() ([]byte, error) { return os.ReadFile(p.Ctrld) }},
		{names.Wrapper, 0o755, func() ([]byte, error) { return os.ReadFile(p.Wrapper) }},
		{"install.sh", 0o755, func() ([]byte, error) { return install, nil }},
		{"README.txt", 0o644, func() ([]byte, error) { return []byte(tarballReadme), nil }},
	}
	if err := tw.WriteHeader(p.header(dir, tar.TypeDir, 0o755, 0)); err != nil {
		return err
	}
	for _, e := range entries {
		data, err := e.data()
		if err != nil {
			return err
		}
		if err := tw.WriteHeader(p.header(dir+e.name, tar.TypeReg, e.mode, int64(len(data)))); err != nil {
			return err
		}
		if _, err := tw.Write(data); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}

func (p Package) header(name string, kind byte, mode, size int64) *tar.Header {
	return &tar.Header{
		Name: name, Typeflag: kind, Mode: mode, Size: size,
		Uname: "root", Gname: "root", ModTime: p.MTime, Format: tar.FormatUSTAR,
	}
}
