//go:build unix

package provision

import "os"

func executableMode(info os.FileInfo) bool { return info.Mode().Perm()&0o111 != 0 }

const exeSuffix = ""
