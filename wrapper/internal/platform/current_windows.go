package platform

import (
	"golang.org/x/sys/windows"

	"github.com/ctrld-install/ctrld-install/wrapper/internal/managed"
)

// Current is the platform the wrapper runs on.
func Current() OS {
	// Without the system folder there is no msiexec to trust: install-msi
	// then fails rather than take one from PATH.
	sys32, _ := windows.GetSystemDirectory()
	programFiles := nativeProgramFiles(knownFolder(windows.FOLDERID_ProgramFilesX64), knownFolder(windows.FOLDERID_ProgramFiles))
	return Windows{SCM: scm{}, ReadPolicy: managed.ReadPolicy, ProgramFiles: programFiles, System32: sys32}
}

func knownFolder(id *windows.KNOWNFOLDERID) func() (string, error) {
	return func() (string, error) { return windows.KnownFolderPath(id, windows.KF_FLAG_DEFAULT) }
}
