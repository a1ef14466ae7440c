package platform

import "github.com/ctrld-install/ctrld-install/internal/names"

// nativeProgramFiles picks the native Program Files from what the OS
// answers: the 64-bit folder (which 32-bit Windows does not have), else
// the process's own, else the default.
func nativeProgramFiles(native, own func() (string, error)) string {
	for _, known := range []func() (string, error){native, own} {
		if dir, err := known(); err == nil && dir != "" {
			return dir
		}
	}
	return names.DefaultProgramFiles
}
