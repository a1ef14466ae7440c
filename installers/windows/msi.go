// Package windows builds ctrld's MSI, in Go, for x64, arm64 and x86. The
// MSI installs ctrld and ctrld-install in Program Files\ControlD and runs
// ctrld-install as a deferred custom action whose failure rolls the
// install back. Its tables are data (tables.go), written by msidb into a
// compound file (cfb) with the files in an embedded cabinet (cab). The
// ADMX template of the settings is rendered here too (admx.go, adml.go).
package windows

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/ctrld-install/ctrld-install/installers/signing"
	"github.com/ctrld-install/ctrld-install/installers/windows/cab"
	"github.com/ctrld-install/ctrld-install/installers/windows/cfb"
	"github.com/ctrld-install/ctrld-install/installers/windows/msidb"
)

// Package describes the MSI to build.
type Package struct {
	Version        string // x.y.z (MSI versions are numeric)
	Arch           string // ArchX64, ArchArm64 or ArchX86
	Ctrld, Wrapper string // Windows binaries of that architecture; Ctrld keeps its file name
	MTime          time.Time
	// Signer, when set, Authenticode-signs the MSI once written. Wrapper
	// must be signed before: the MSI's signature covers its cabinet.
	Signer *signing.Identity
}

// FileName is the conventional output name: ctrld-<version>-<arch>.msi.
func (p Package) FileName() string { return "ctrld-" + p.Version + "-" + p.Arch + ".msi" }

// Summary information that does not depend on the inputs.
const (
	codepageWestern = 1252
	// Word Count 2: compressed files (the cabinet), long file names.
	wordCountCompressed = 2
	// Security 2: read-only recommended, as for every installation package.
	securityReadOnly = 2
	// cabAttributes marks the files "archive", as cabinet tools do.
	cabAttributes = 0x20
)

// Build writes the MSI to w and reports whether it signed it. The files
// are read twice (hashes, then the cabinet, which goes through a
// temporary file), so memory stays flat however large they are.
func (p Package) Build(w io.Writer) (signed bool, err error) {
	plat, err := platformOf(p.Arch)
	if err != nil {
		return false, err
	}
	if err := checkVersion(p.Version); err != nil {
		return false, err
	}
	work, err := os.MkdirTemp("", "ctrld-msi")
	if err != nil {
		return false, err
	}
	defer os.RemoveAll(work)
	if p.Signer == nil {
		return false, p.write(w, plat, p.Wrapper, work)
	}
	return true, p.writeSigned(w, plat, work)
}

func (p Package) write(w io.Writer, plat platform, wrapper, work string) error {
	sources := []string{p.Ctrld, wrapper}
	files, digest, err := p.payload(sources)
	if err != nil {
		return err
	}
	codes := p.codes()
	tables, err := packageTables(tableInputs{platform: plat, version: p.Version, codes: codes, files: files})
	if err != nil {
		return err
	}
	cabinet, size, err := p.cabinet(filepath.Join(work, cabinetName), files, sources)
	if err != nil {
		return err
	}
	defer cabinet.Close()
	c := cfb.NewWriter(w)
	c.SetRootCLSID(msidb.InstallerCLSID)
	db := msidb.NewWriter(c)
	for _, t := range tables {
		if err := db.WriteTable(t); err != nil {
			return err
		}
	}
	db.SetSummary(p.summary(plat, packageCode(digest, tables)))
	if err := db.AddStream(cabinetName, size, cabinet); err != nil {
		return err
	}
	if err := db.Close(); err != nil {
		return err
	}
	return c.Close()
}

func (p Package) summary(plat platform, packageCode string) msidb.Summary {
	return msidb.Summary{
		Codepage: codepageWestern, Title: "Installation Database", Subject: "Control D (ctrld)",
		Author: "Control D", Keywords: "Installer", Comments: "ctrld, provisioned by ctrld-install",
		Template: plat.template, RevisionNumber: packageCode, Created: p.MTime, LastSaved: p.MTime,
		PageCount: plat.pageCount, WordCount: wordCountCompressed, Application: "ctrld-install", Security: securityReadOnly,
	}
}

// cabinet writes the files, in File.Sequence order and under their File
// keys, into a cabinet file and returns it open at its start.
func (p Package) cabinet(path string, files []packageFile, sources []string) (*os.File, int64, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, 0, err
	}
	if err := p.fillCabinet(f, files, sources); err != nil {
		f.Close()
		return nil, 0, err
	}
	size, err := f.Seek(0, io.SeekCurrent)
	if err == nil {
		_, err = f.Seek(0, io.SeekStart)
	}
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, size, nil
}

func (p Package) fillCabinet(out io.Writer, files []packageFile, sources []string) error {
	cw := cab.NewWriter(out)
	for i, pf := range files {
		fw, err := cw.Create(cab.FileHeader{Name: pf.key, Size: pf.size, Modified: p.MTime, Attributes: cabAttributes})
		if err != nil {
			return err
		}
		if err := copyFrom(fw, sources[i], pf.size); err != nil {
			return err
		}
	}
	return cw.Close()
}

// checkVersion accepts what Windows Installer compares:
// major.minor.build, at most 255.255.65535.
func checkVersion(v string) error {
	parts := strings.Split(v, ".")
	limits := []int{255, 255, 65535}
	if len(parts) != len(limits) {
		return fmt.Errorf("msi: version %q: want major.minor.build", v)
	}
	for i, part := range parts {
		n, err := strconv.Atoi(part)
		if err != nil || n < 0 || n > limits[i] || strconv.Itoa(n) != part {
			return fmt.Errorf("msi: version %q: field %d must be a number from 0 to %d", v, i+1, limits[i])
		}
	}
	return nil
}

// copyFrom copies exactly size bytes of the file at path: a file that
// changed since it was hashed fails the build.
func copyFrom(w io.Writer, path string, size int64) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	n, err := io.Copy(w, f)
	if err == nil && n != size {
		err = fmt.Errorf("msi: %s changed during the build (%d bytes, was %d)", path, n, size)
	}
	return err
}
