package platform

import "os"

// ServiceKnown reports whether a service called name is known to the OS
// in any state, whichever binary it runs: one of its definition files
// exists, or, where the OS lists none (the SCM), the OS knows it.
func ServiceKnown(osys OS, name string) bool {
	files := osys.ServiceFiles(name)
	if len(files) == 0 {
		return osys.Installed(Service{Name: name})
	}
	for _, f := range files {
		if _, err := os.Lstat(f); err == nil {
			return true
		}
	}
	return false
}
