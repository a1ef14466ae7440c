package release

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/ctrld-install/ctrld-install/installers/linux"
	"github.com/ctrld-install/ctrld-install/installers/macos"
	"github.com/ctrld-install/ctrld-install/installers/windows"
)

// Artifact is one file of the release.
type Artifact struct {
	Name   string `json:"artifact"`
	OS     string `json:"os"`
	Arch   string `json:"arch"`
	Kind   string `json:"kind"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
	Signed bool   `json:"signed"`
	// Took is how long the build took (progress and bench only).
	Took time.Duration `json:"-"`
}

// job builds one artifact into path and says whether it signed it.
type job struct {
	name, os, arch, kind string
	build                func(path string) (signed bool, err error)
}

// demoName marks an artifact built around the demo ctrld.
func (c Config) demoName(name string) string {
	if !c.Demo() {
		return name
	}
	for _, ext := range []string{".tar.gz", ".deb", ".rpm", ".pkg", ".msi"} {
		if base, ok := strings.CutSuffix(name, ext); ok {
			return base + "-DEMO" + ext
		}
	}
	return name
}

func (c Config) jobs(ctrld Ctrld) ([]job, error) {
	var jobs []job
	mac := macos.Package{
		Identifier: "com.controld.ctrld", Version: c.Version, MTime: c.MTime,
		CtrldName: filepath.Base(ctrld[Platform{"darwin", "arm64"}]),
		Ctrld:     universalInputs(ctrld[Platform{"darwin", "amd64"}], ctrld[Platform{"darwin", "arm64"}]),
		Wrapper:   []string{c.WrapperPath(Platform{"darwin", "amd64"}), c.WrapperPath(Platform{"darwin", "arm64"})},
	}
	jobs = append(jobs, job{c.demoName(mac.FileName()), "darwin", "universal", "pkg", func(path string) (bool, error) {
		if err := writeWith(path, mac.Build); err != nil {
			return false, err
		}
		return c.signPkg(path)
	}})
	for _, goarch := range []string{"amd64", "arm64", "386"} {
		p := Platform{"windows", goarch}
		win := windows.Package{
			Version: msiVersion(c.Version), Arch: map[string]string{"amd64": windows.ArchX64, "arm64": windows.ArchArm64, "386": windows.ArchX86}[goarch],
			MTime: c.MTime, Ctrld: ctrld[p], Wrapper: c.WrapperPath(p), Cert: c.Signing.MsiCert, Key: c.Signing.MsiKey,
		}
		jobs = append(jobs, job{c.demoName(win.FileName()), "windows", goarch, "msi", func(path string) (bool, error) {
			return win.Cert != "" && win.Key != "", writeWith(path, win.Build)
		}})
	}
	for _, arch := range []string{"amd64", "arm64"} {
		p := Platform{"linux", arch}
		lp := linux.Package{Name: "ctrld", Version: c.Version, Arch: arch, MTime: c.MTime,
			Ctrld: ctrld[p], Wrapper: c.WrapperPath(p), SigningKey: c.Signing.PackageGPGKey}
		for _, format := range linux.Formats {
			name, err := lp.FileName(format)
			if err != nil {
				return nil, err
			}
			jobs = append(jobs, job{c.demoName(name), "linux", arch, format, func(path string) (bool, error) {
				return lp.SigningKey != "", writeWith(path, func(w io.Writer) error { return lp.Build(format, w) })
			}})
		}
		jobs = append(jobs, job{c.demoName(lp.TarballName()), "linux", arch, "tar.gz", func(path string) (bool, error) {
			return false, writeWith(path, lp.BuildTarball)
		}})
	}
	jobs = append(jobs, job{"intune-return-codes.json", "windows", "any", "intune-return-codes", func(path string) (bool, error) {
		return false, writeWith(path, windows.WriteReturnCodes)
	}})
	var wanted []job
	for _, j := range jobs {
		if c.wants(j.kind) {
			wanted = append(wanted, j)
		}
	}
	return wanted, nil
}

// universalInputs gives the pkg both Mac slices, or the one file when a
// universal ("all") archive served both.
func universalInputs(amd64, arm64 string) []string {
	if amd64 == arm64 {
		return []string{amd64}
	}
	return []string{amd64, arm64}
}

// msiVersion keeps the numeric x.y.z that Windows Installer compares.
func msiVersion(v string) string {
	return strings.FieldsFunc(v, func(r rune) bool { return r == '+' || r == '-' || r == '~' })[0]
}

func writeWith(path string, build func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := build(f); err != nil {
		f.Close()
		os.Remove(path)
		return err
	}
	return f.Close()
}

// signPkg uses productsign where it exists; elsewhere the pkg stays
// unsigned and the progress says so.
func (c Config) signPkg(path string) (bool, error) {
	if runtime.GOOS != "darwin" || c.Signing.PkgIdentity == "" {
		c.progress("%s: unsigned (signing needs macOS with productsign and CTRLD_PKG_SIGN_IDENTITY)", filepath.Base(path))
		return false, nil
	}
	signed := path + ".signed"
	if out, err := exec.Command("productsign", "--sign", c.Signing.PkgIdentity, path, signed).CombinedOutput(); err != nil {
		return false, fmt.Errorf("productsign: %v\n%s", err, out)
	}
	return true, os.Rename(signed, path)
}

// runJobs builds every artifact in parallel and reports each as it lands.
func (c Config) runJobs(jobs []job) ([]Artifact, error) {
	arts := make([]Artifact, len(jobs))
	errs := make([]error, len(jobs))
	var wg sync.WaitGroup
	for i, j := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			arts[i], errs[i] = c.runJob(j)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return arts, nil
}

func (c Config) runJob(j job) (Artifact, error) {
	start := time.Now()
	path := filepath.Join(c.Out, j.name)
	signed, err := j.build(path)
	if err != nil {
		return Artifact{}, fmt.Errorf("%s: %w", j.name, err)
	}
	sum, size, err := hashFile(path)
	if err != nil {
		return Artifact{}, err
	}
	a := Artifact{Name: j.name, OS: j.os, Arch: j.arch, Kind: j.kind, Size: size, SHA256: sum, Signed: signed, Took: time.Since(start)}
	c.progress("%-48s %10.1f KiB %6.2fs", a.Name, float64(a.Size)/1024, a.Took.Seconds())
	return a, nil
}

func hashFile(path string) (string, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	return hex.EncodeToString(h.Sum(nil)), n, err
}
