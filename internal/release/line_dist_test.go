package release

import (
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/ctrld-install/ctrld-install/installers/linux"
	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// A release from the client line's archives packages ctrld-client in
// every kind, under its own name and never as ctrld, and says the line
// in its manifest.
func TestDistOfTheClientLine(t *testing.T) {
	t.Parallel()
	testenv.WholeRelease(t, "a dist from the client line's archives")
	msiextract := testenv.RequireTool(t, "msiextract")
	dpkgDeb := testenv.RequireTool(t, "dpkg-deb")
	bsdtar := testenv.RequireTool(t, "bsdtar")
	archives, binaries := fakeLineArchives(t, names.CtrldClient, "1.2.3")
	cfg := baseConfig(t)
	cfg.ArchiveDir = archives
	if _, err := Dist(cfg); err != nil {
		t.Fatal(err)
	}
	var manifest Manifest
	data, _ := os.ReadFile(filepath.Join(cfg.Out, "manifest.json"))
	if err := json.Unmarshal(data, &manifest); err != nil || manifest.Line != names.CtrldClient || len(manifest.Artifacts) != 32 {
		t.Fatalf("manifest line %q, %d artifacts (%v)", manifest.Line, len(manifest.Artifacts), err)
	}
	extract := func(a Artifact) string {
		dir := t.TempDir()
		var cmd *exec.Cmd
		switch a.Kind {
		case "msi":
			cmd = exec.Command(msiextract, "-C", dir, filepath.Join(cfg.Out, a.Name))
		case "deb":
			cmd = exec.Command(dpkgDeb, "-x", filepath.Join(cfg.Out, a.Name), dir)
		default:
			cmd = exec.Command(bsdtar, "-xf", filepath.Join(cfg.Out, a.Name), "-C", dir)
		}
		if msg, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", a.Name, err, msg)
		}
		return dir
	}
	for _, a := range manifest.Artifacts {
		switch a.Kind {
		case "pkg":
			checkPkgCtrld(t, filepath.Join(cfg.Out, a.Name), names.CtrldClient, binaries[Platform{"darwin", "amd64"}], binaries[Platform{"darwin", "arm64"}])
			if payload := pkgPayload(t, filepath.Join(cfg.Out, a.Name)); payload["./Library/ControlD/"+names.Ctrld] {
				t.Errorf("%s carries a ctrld beside ctrld-client", a.Name)
			}
		case "msi", "deb", "rpm", "tar.gz":
			if a.Kind == "deb" && linux.ArchName(linux.Deb, a.Arch) == "" {
				continue
			}
			dir := extract(a)
			goos := map[bool]string{true: "windows", false: "linux"}[a.Kind == "msi"]
			checkFileUnder(t, dir, exeName(names.CtrldClient, goos), binaries[Platform{goos, a.Arch}])
			if found := filesNamed(dir, exeName(names.Ctrld, goos)); len(found) > 0 {
				t.Errorf("%s carries %v beside ctrld-client", a.Name, found)
			}
		}
	}
}

// filesNamed are the files called name under root.
func filesNamed(root, name string) []string {
	var found []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == name && !d.IsDir() {
			found = append(found, p)
		}
		return nil
	})
	return found
}

// pkgPayload is the set of paths in a pkg's payload, read with the
// project's readers.
func pkgPayload(t *testing.T, pkg string) map[string]bool {
	t.Helper()
	data, err := os.ReadFile(pkg)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	cr := pkgPayloadReader(t, data)
	for {
		h, err := cr.Next()
		if err != nil {
			return names
		}
		names[h.Name] = true
	}
}
