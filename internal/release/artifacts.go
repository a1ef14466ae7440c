package release

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
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

// ErrNotSigned is a build asked to sign that came out unsigned: it fails
// rather than leave an unsigned artifact where a signed one was wanted.
var ErrNotSigned = errors.New("built unsigned although its signing inputs are set")

// job is one installer to build, with what the manifest says about it.
type job struct {
	kind, os, arch string
	installer      Installer
	// signs: the kind's signing inputs are set, so an unsigned result
	// is a failure, never an artifact.
	signs bool
}

// jobs makes one job per installer of every kind, and says once per kind
// when it builds unsigned.
func (c Config) jobs(kinds []Kind, staged map[Platform]Binaries) []job {
	var jobs []job
	for _, k := range kinds {
		base := Input{Version: c.Version, MTime: c.MTime, Signing: c.Signing}
		by := k.signedBy(c.Signing)
		switch {
		case by != "":
			c.progress("%s: signed with %s", k.Name, by)
		case k.HowToSign != "":
			c.progress("%s: unsigned (to sign: %s)", k.Name, k.HowToSign)
		}
		c.codeSigningLine(k)
		for _, in := range k.inputs(base, staged) {
			jobs = append(jobs, job{kind: k.Name, os: k.OS, arch: inputArch(in), installer: k.New(in), signs: by != ""})
		}
	}
	return jobs
}

// codeSigningLine says whether the programs inside the kind are
// code-signed, for a kind that code-signs them.
func (c Config) codeSigningLine(k Kind) {
	if k.CodeSignedBy == nil {
		return
	}
	if by := k.CodeSignedBy(c.Signing); by != "" {
		c.progress("%s: Mach-O files code-signed with %s", k.Name, by)
		return
	}
	c.progress("%s: Mach-O files not code-signed (to sign: %s)", k.Name, k.HowToCodeSign)
}

// inputArch is the manifest's arch: the one platform's, "universal" for
// several, "any" for none.
func inputArch(in Input) string {
	switch len(in.Binaries) {
	case 0:
		return "any"
	case 1:
		return in.Binaries[0].Arch
	}
	return "universal"
}

// demoName marks an artifact built around the demo ctrld.
func (c Config) demoName(name string) string {
	if !c.Demo() {
		return name
	}
	for _, ext := range []string{".tar.gz", ".deb", ".rpm", ".pkg", ".msi", ".zip"} {
		if base, ok := strings.CutSuffix(name, ext); ok {
			return base + "-DEMO" + ext
		}
	}
	return name
}

func (c Config) runJob(j job) (Artifact, error) {
	start := time.Now()
	name := c.demoName(j.installer.FileName())
	path := filepath.Join(c.Out, name)
	signed, err := buildFile(path, j.installer)
	if err == nil && j.signs && !signed {
		os.Remove(path)
		err = ErrNotSigned
	}
	if err != nil {
		return Artifact{}, fmt.Errorf("%s: %w", name, err)
	}
	sum, size, err := hashFile(path)
	if err != nil {
		return Artifact{}, err
	}
	a := Artifact{Name: name, OS: j.os, Arch: j.arch, Kind: j.kind, Size: size, SHA256: sum, Signed: signed, Took: time.Since(start)}
	c.progress("%-48s %10.1f KiB %6.2fs", a.Name, float64(a.Size)/1024, a.Took.Seconds())
	return a, nil
}

// buildFile writes one installer to path, leaving nothing on failure.
func buildFile(path string, i Installer) (bool, error) {
	f, err := os.Create(path)
	if err != nil {
		return false, err
	}
	signed, err := i.Build(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
	}
	return signed, err
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
