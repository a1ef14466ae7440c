package provision

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/platform"
)

// rootedLinux is Linux whose service definition files are under the
// test's /etc, as the real ones are under /etc and /lib.
type rootedLinux struct {
	platform.Linux
	lib string
}

func (r rootedLinux) ServiceFiles(name string) []string {
	return []string{
		filepath.Join(r.Paths.Etc, "systemd", "system", name+".service"),
		filepath.Join(r.lib, "systemd", "system", name+".service"),
		filepath.Join(r.Paths.Etc, "init.d", name),
	}
}

func write(t *testing.T, path string, mode os.FileMode) {
	t.Helper()
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, []byte("x\n"), mode); err != nil {
		t.Fatal(err)
	}
}

// A removal of ctrld where the client line is installed too, its unit
// enabled and its init script and rc links there, leaves nothing of
// either line: both services forgotten by systemd and sysv, the client's
// binary, the sockets of both in /run, and every log, backup and the
// configuration in the home dir. What an admin put in the home dir stays,
// and so does our own binary, which the package removes.
func TestUninstallLeavesNothingOfEitherLine(t *testing.T) {
	for _, ours := range names.CtrldNames {
		t.Run(ours, func(t *testing.T) {
			l, systemctl, _ := systemdRoots(t, ours)
			osys := rootedLinux{Linux: l, lib: t.TempDir()}
			other := names.OtherLines(ours)[0].Binary
			etc, run := l.Paths.Etc, l.Paths.RunDir
			units := filepath.Join(etc, "systemd", "system")
			write(t, filepath.Join(units, other+".service"), 0o644)
			os.Symlink(filepath.Join(units, other+".service"), filepath.Join(units, "multi-user.target.wants", other+".service"))
			write(t, filepath.Join(etc, "init.d", other), 0o755)
			os.MkdirAll(filepath.Join(etc, "rc2.d"), 0o755)
			os.Symlink("../init.d/"+other, filepath.Join(etc, "rc2.d", "S01"+other))
			ctrld := namedCtrld(t, ours)
			otherBin := filepath.Join(filepath.Dir(ctrld), other)
			write(t, otherBin, 0o755)
			home := t.TempDir()
			var gone []string
			for _, f := range names.CtrldLineHomeFiles() {
				gone = append(gone, filepath.Join(home, f))
			}
			for _, name := range names.CtrldNames {
				for _, f := range names.CtrldRunFiles(name) {
					gone = append(gone, filepath.Join(run, f))
				}
			}
			for _, f := range gone {
				write(t, f, 0o600)
			}
			admin := filepath.Join(home, "notes.txt")
			write(t, admin, 0o600)
			Uninstall(context.Background(), Config{Ctrld: ctrld, Home: home, RecordDir: home, Grace: grace}, osys)
			gone = append(gone, otherBin, filepath.Join(units, other+".service"), filepath.Join(units, "multi-user.target.wants", other+".service"),
				filepath.Join(etc, "init.d", other), filepath.Join(etc, "rc2.d", "S01"+other))
			for _, f := range gone {
				if _, err := os.Lstat(f); err == nil {
					t.Errorf("%s is still there", f)
				}
			}
			for _, f := range []string{admin, ctrld} {
				if _, err := os.Lstat(f); err != nil {
					t.Errorf("%s was removed: %v", f, err)
				}
			}
			for _, call := range []string{"--no-block stop " + other + ".service", "disable " + other + ".service", "reset-failed " + other + ".service"} {
				if !slices.Contains(systemctl.calls, fakeSystemctl+" "+call) {
					t.Errorf("no systemctl %s: %q", call, systemctl.calls)
				}
			}
		})
	}
}

// The other line's service in a place the clean-up does not remove (a
// unit its own package installed under /lib) keeps its binary: a
// service is never left pointing at a deleted binary by us.
func TestUninstallKeepsTheBinaryOfAServiceItCannotRemove(t *testing.T) {
	l, _, _ := systemdRoots(t, names.Ctrld)
	osys := rootedLinux{Linux: l, lib: t.TempDir()}
	write(t, filepath.Join(osys.lib, "systemd", "system", names.CtrldClient+".service"), 0o644)
	ctrld := namedCtrld(t, names.Ctrld)
	otherBin := filepath.Join(filepath.Dir(ctrld), names.CtrldClient)
	write(t, otherBin, 0o755)
	home := t.TempDir()
	Uninstall(context.Background(), Config{Ctrld: ctrld, Home: home, RecordDir: home, Grace: grace}, osys)
	if _, err := os.Lstat(otherBin); err != nil {
		t.Errorf("the binary of a service still known was removed: %v", err)
	}
}
