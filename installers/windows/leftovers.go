package windows

import (
	"strings"

	"github.com/ctrld-install/ctrld-install/internal/names"
)

// removeFileRows remove on uninstall what ctrld and the wrapper leave in
// the install folder, so nothing is left behind. The MSI installs none of
// these files; the rows hang off ctrld's component.
func removeFileRows() []removeFileRow {
	rows := make([]removeFileRow, len(names.InstallFolderFiles))
	for i, name := range names.InstallFolderFiles {
		rows[i] = removeFileRow{FileKey: "Remove_" + identifier(name), Component: componentCtrld, FileName: name, DirProperty: dirInstall, InstallMode: removeOnUninstall}
	}
	return rows
}

// identifier makes a file name a key column value: MSI identifiers hold
// letters, digits, underscores and periods only.
func identifier(name string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' {
			return r
		}
		return '_'
	}, name)
}
