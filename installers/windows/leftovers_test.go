//go:build linux

package windows

import (
	"slices"
	"strconv"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/names"
)

// Every file the wrapper and ctrld may leave in the install folder goes
// on uninstall: the built MSI's RemoveFile table, as the project's own
// reader sees it, names each of them in INSTALLDIR.
func TestEveryInstallFolderFileIsRemoved(t *testing.T) {
	ctrld, wrapper := fakeExes(t)
	rows := readTables(t, buildMSI(t, pkg(ArchX64, ctrld, wrapper)))["RemoveFile"]
	removed := map[string]bool{}
	for _, r := range rows {
		// FileKey, Component_, FileName, DirProperty, InstallMode
		if r[3] == dirInstall && r[4] == strconv.Itoa(removeOnUninstall) {
			removed[r[2]] = true
		}
	}
	for _, name := range slices.Concat(names.WrapperFiles, names.CtrldFiles) {
		if !removed[name] {
			t.Errorf("%s is left behind in the install folder; RemoveFile holds %q", name, rows)
		}
	}
}
