package platform

import (
	"os"

	"github.com/ctrld-install/ctrld-install/contract"
	"github.com/ctrld-install/ctrld-install/wrapper/settings"
)

// Current is the platform the wrapper runs on.
func Current() OS {
	pd := os.Getenv("ProgramData")
	if pd == "" {
		pd = contract.DefaultProgramData
	}
	return Windows{SCM: scm{}, ReadPolicy: settings.ReadPolicy, ProgramData: pd}
}
