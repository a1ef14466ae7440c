package platform

import (
	"os"

	"golang.org/x/sys/windows"

	"github.com/ctrld-install/ctrld-install/contract"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/winacl"
	"github.com/ctrld-install/ctrld-install/wrapper/settings"
)

// Current is the platform the wrapper runs on.
func Current() OS {
	pd := os.Getenv("ProgramData")
	if pd == "" {
		pd = contract.DefaultProgramData
	}
	// Without the system folder there is no msiexec to trust: install-msi
	// then fails rather than take one from PATH.
	sys32, _ := windows.GetSystemDirectory()
	return Windows{SCM: scm{}, ReadPolicy: settings.ReadPolicy, ProgramData: pd, System32: sys32, ACL: winacl.OS{}}
}
