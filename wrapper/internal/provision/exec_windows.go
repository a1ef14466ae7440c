package provision

import "os"

// Windows has no execute bit; a regular file is enough.
func executableMode(os.FileInfo) bool { return true }

const exeSuffix = ".exe"
